"""Port of zrporz/ANN, HW3/codes/model_tfmr.py (commit 348ac1b): TfmrAttention (its causal-mask buffer, _attn,
_split_heads and _merge_heads, run by the course's forward), a student's solution of Tsinghua University's Artificial
Neural Network course (人工神经网络), homework 3 (a GPT-2 style Transformer for text generation), 2023.

Ports scaled_dot_product_attention (_attn) and multi_head_attention (TfmrAttention.forward with the student's
_split_heads, _attn and _merge_heads).

Conventions kept: the student's buffer `torch.tril(torch.ones((max_positions, max_positions),
dtype=torch.uint8)).view(1, 1, max_positions, max_positions)` (max_positions = n_positions = 1024, the course's
config.json); _attn(query, key, value) has no mask and no scale argument: `seq_lens = query.size(-2)`, `attn_weights =
torch.matmul(query,key.transpose(-2, -1))`, then the course's given lines `if self.scale_attn_weights: attn_weights =
attn_weights / (float(value.size(-1)) ** 0.5)` (the VALUES' width; scale_attn_weights=True in configuration.py), the
student's `causal_mask = self.bias[:,:,:seq_lens,:seq_lens].bool()` (always causal, a square mask of the QUERIES'
length, top-left: it broadcasts against (n_q, n_k) scores only when n_q == n_k, or n_q == 1, when it masks nothing),
the course's `torch.where(causal_mask, attn_weights, self.masked_bias.to(attn_weights.dtype))` (masked_bias = -1e4; the
4-D mask gives 2-D and 3-D scores leading axes of length 1), `torch.nn.functional.softmax(attn_weights,dim=-1)`,
`attn_output = torch.matmul(attn_weights,value)`, `return attn_output, attn_weights`. The course's
TfmrAttention(config) sets embed_dim = hidden_size, head_dim = embed_dim // num_heads, split_size = embed_dim and
raises ValueError unless head_dim * num_heads == embed_dim; its forward runs `query, key, value =
self.c_attn(hidden_states).split(self.split_size, dim=2)` (one fused projection, cut into chunks of hidden_size
columns along axis 2), the student's _split_heads `assert num_heads * attn_head_size == tensor.shape[2]` then
`torch.stack(tensor.split(attn_head_size, dim=2), dim=1)` with attn_head_size = self.head_dim, _attn, _merge_heads
`torch.cat(torch.unbind(tensor, dim=1), dim=-1)`, then c_proj. TransposeLinear.forward is `torch.addmm(self.bias,
x.view(-1, x.size(-1)), self.weight)` viewed back to `x.size()[:-1] + (self.nf,)`.

Left out: attn_dropout and resid_dropout (evaluation), the KV cache of forward (layer_past, given by the course), the
TransposeLinear biases (zero here: the contract has none). Added for the contract only: scaled_dot_product_attention
takes `mask` and `scale` parameters (never read) so that the contract's calls reach the student's code; in
multi_head_attention hidden_size is X.shape[-1] (c_attn's input width), c_attn's weight is the given matrices side by
side, [W_Q | W_K | W_V] (GPT-2's fused layout), and c_proj's weight is W_O (set as parameters, not loaded with a
shape check); the contract's mask is never read (forward has none: _attn is always causal).
"""

import numpy as np

MAX_POSITIONS = 1024  # config.json: "n_positions": 1024 (max_position_embeddings)
SCALE_ATTN_WEIGHTS = True  # configuration.py: scale_attn_weights=True
_BIAS = np.tril(np.ones((MAX_POSITIONS, MAX_POSITIONS), dtype=np.uint8)).reshape(1, 1, MAX_POSITIONS, MAX_POSITIONS)
_MASKED_BIAS = np.float32(-1e4)  # self.register_buffer("masked_bias", torch.tensor(-1e4))


def _softmax_last(x):  # F.softmax(x, dim=-1)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    query, key, value = Q, K, V
    seq_lens = query.shape[-2]
    attn_weights = query @ np.swapaxes(key, -2, -1)
    if SCALE_ATTN_WEIGHTS:
        attn_weights = attn_weights / (float(value.shape[-1]) ** 0.5)
    causal_mask = _BIAS[:, :, :seq_lens, :seq_lens].astype(bool)
    attn_weights = np.where(causal_mask, attn_weights, _MASKED_BIAS.astype(attn_weights.dtype))
    attn_weights = _softmax_last(attn_weights)
    attn_output = attn_weights @ value
    return attn_output, attn_weights


def _transpose_linear(x, weight):  # TransposeLinear.forward (zero bias)
    size_out = (*x.shape[:-1], weight.shape[1])
    return (x.reshape(-1, x.shape[-1]) @ weight).reshape(size_out)


def _torch_split(tensor, split_size, dim):  # Tensor.split(split_size, dim): chunks of split_size, the last shorter
    if not -tensor.ndim <= dim < tensor.ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-tensor.ndim}, {tensor.ndim - 1}], "
                         f"but got {dim})")
    n = tensor.shape[dim]
    return tuple(np.take(tensor, np.arange(i, min(i + split_size, n)), axis=dim) for i in range(0, n, split_size))


def _split_heads(tensor, num_heads, attn_head_size):
    assert num_heads * attn_head_size == tensor.shape[2]
    return np.stack(_torch_split(tensor, attn_head_size, dim=2), axis=1)


def _merge_heads(tensor, num_heads, attn_head_size):  # torch.cat(torch.unbind(tensor, dim=1), dim=-1)
    return np.concatenate([tensor[:, h] for h in range(tensor.shape[1])], axis=-1)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    embed_dim = X.shape[-1]  # config.hidden_size
    head_dim = embed_dim // num_heads
    split_size = embed_dim
    if head_dim * num_heads != embed_dim:
        raise ValueError(f"`embed_dim` must be divisible by num_heads (got `embed_dim`: {embed_dim} and `num_heads`: "
                         f"{num_heads}).")
    c_attn = np.concatenate([W_Q, W_K, W_V], axis=1)
    query, key, value = _torch_split(_transpose_linear(X, c_attn), split_size, dim=2)
    query = _split_heads(query, num_heads, head_dim)
    key = _split_heads(key, num_heads, head_dim)
    value = _split_heads(value, num_heads, head_dim)
    attn_output, _attn_weights = scaled_dot_product_attention(query, key, value)
    attn_output = _merge_heads(attn_output, num_heads, head_dim)
    return _transpose_linear(attn_output, W_O)
