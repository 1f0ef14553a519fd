"""Port of FYuanZheng/Transformer-Assignment, model.py (commit 8798d06, November 2025): RotaryPositionalEmbedding and
MultiHeadAttention, a student's solution of the mid-term assignment of the course 大模型基础与应用 ("Foundations and
Applications of Large Models", autumn 2025): a hand-written decoder-only Transformer ("手写实现 Transformer：不使用
torch.nn.Transformer", with RoPE and GELU) trained on WikiText-2, with ablations of heads and layers.

Ports multi_head_attention (MultiHeadAttention.forward) and rope (RotaryPositionalEmbedding.forward).

Conventions kept: RotaryPositionalEmbedding(dim, max_seq_len=2048) precomputes `inv_freq = 1.0 / (10000 **
(torch.arange(0, dim, 2).float() / dim))` (base 10000, fixed), `t = torch.arange(max_seq_len)` (positions 0..2047),
`freqs = torch.einsum('i,j->ij', t, inv_freq)`, `emb = torch.cat((freqs, freqs), dim=-1)` and caches `emb.cos()[None,
None, :, :]` and `emb.sin()[None, None, :, :]` ((1, 1, max_seq_len, dim)); rotate_half(x) is `torch.cat((-x2, x1),
dim=-1)` of the halves x1 = x[..., :d/2], x2 = x[..., d/2:] (the GPT-NeoX layout); forward(q, k) reads `seq_len =
q.shape[2]` (the tokens of a (B, H, T, d) tensor), cuts `cos_cached[:, :, :seq_len, :]` (likewise sin) and returns `(q
* cos) + (rotate_half(q) * sin)` and the same for k (token t at position t: there is no positions argument).
MultiHeadAttention(d_model, n_heads, dropout, max_seq_len) asserts `d_model % n_heads == 0`, sets `self.d_k = d_model
// n_heads` (the head width of the queries, keys AND values), builds four `nn.Linear(d_model, d_model)` layers and
`self.rope = RotaryPositionalEmbedding(self.d_k, max_seq_len)`; forward(x, mask=None) reads `batch_size, seq_len,
d_model = x.shape` (3-D only), projects and views each of q, k and v as `view(batch_size, seq_len, self.n_heads,
self.d_k).transpose(1, 2)`, rotates `q, k = self.rope(q, k)`, computes `torch.matmul(q, k.transpose(-2, -1)) /
math.sqrt(self.d_k)`, `scores.masked_fill(mask == 0, float('-inf'))` (1/True = keep; a fully masked row becomes NaN),
`F.softmax(scores, dim=-1)`, `torch.matmul(attn, v)`, `out.transpose(1, 2).contiguous().view(batch_size, seq_len,
d_model)` (the input's width) and `self.o_proj(out)`. The model's forward passes `torch.tril(torch.ones(seq_len,
seq_len)).unsqueeze(0).unsqueeze(0)`.

Left out: dropout (the identity at evaluation), the Linear layers' biases (zero here: the contract has none), float32
tables and arithmetic. Added for the contract only: multi_head_attention is MultiHeadAttention(d_model=X.shape[-1],
n_heads=num_heads, max_seq_len=2048) with W_Q, W_K, W_V and W_O the weights of q_proj, k_proj, v_proj and o_proj (x @ W
for the Linear's x @ weight.T), loaded as load_state_dict would (it raises unless each is (d_model, d_model)), and the
contract's mask passed as the student's; rope(x, positions, base) is RotaryPositionalEmbedding(x.shape[-1],
2048).forward(x, x)'s first output (`positions` and `base` are never read).
"""

import math

import numpy as np

MAX_SEQ_LEN = 2048  # MultiHeadAttention's and the model's default max_seq_len


def _linear(x, W, in_features, out_features):  # nn.Linear(in_features, out_features) given W (bias zero)
    W = np.asarray(W)
    if W.shape != (in_features, out_features):
        raise RuntimeError(f"size mismatch for weight: copying a param with shape {W.T.shape} from checkpoint, the "
                           f"shape in current model is {(out_features, in_features)}.")
    return x @ W


def _view(t, shape):  # torch.Tensor.view: the element count must match
    try:
        return np.reshape(t, shape)
    except ValueError as e:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {np.size(t)}") from e


def _softmax_last(x):  # F.softmax(x, dim=-1): an all -inf row is NaN
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


class _RotaryPositionalEmbedding:
    def __init__(self, dim, max_seq_len=MAX_SEQ_LEN):
        self.dim = dim
        self.inv_freq = 1.0 / (10000 ** (np.arange(0, dim, 2, dtype=float) / dim))
        t = np.arange(max_seq_len, dtype=float)
        freqs = np.einsum('i,j->ij', t, self.inv_freq)
        emb = np.concatenate((freqs, freqs), axis=-1)
        self.cos_cached = np.cos(emb)[None, None, :, :]
        self.sin_cached = np.sin(emb)[None, None, :, :]

    def rotate_half(self, x):
        x1, x2 = x[..., :x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
        return np.concatenate((-x2, x1), axis=-1)

    def forward(self, q, k):
        seq_len = q.shape[2]
        cos = self.cos_cached[:, :, :seq_len, :]
        sin = self.sin_cached[:, :, :seq_len, :]
        q_embed = (q * cos) + (self.rotate_half(q) * sin)
        k_embed = (k * cos) + (self.rotate_half(k) * sin)
        return q_embed, k_embed


def rope(x, positions, base=10000.0):
    x = np.asarray(x)
    q_embed, _k_embed = _RotaryPositionalEmbedding(x.shape[-1], MAX_SEQ_LEN).forward(x, x)
    return q_embed


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model, n_heads = X.shape[-1], num_heads
    assert d_model % n_heads == 0
    d_k = d_model // n_heads
    rope_module = _RotaryPositionalEmbedding(d_k, MAX_SEQ_LEN)

    batch_size, seq_len, d_model = X.shape
    q = np.swapaxes(_view(_linear(X, W_Q, d_model, d_model), (batch_size, seq_len, n_heads, d_k)), 1, 2)
    k = np.swapaxes(_view(_linear(X, W_K, d_model, d_model), (batch_size, seq_len, n_heads, d_k)), 1, 2)
    v = np.swapaxes(_view(_linear(X, W_V, d_model, d_model), (batch_size, seq_len, n_heads, d_k)), 1, 2)
    q, k = rope_module.forward(q, k)
    scores = q @ np.swapaxes(k, -2, -1) / math.sqrt(d_k)
    if mask is not None:
        scores = np.where(np.asarray(mask) == 0, -np.inf, scores)  # masked_fill(mask == 0, -inf), out of place
    attn = _softmax_last(scores)
    out = attn @ v
    out = _view(np.swapaxes(out, 1, 2), (batch_size, seq_len, d_model))
    return _linear(out, W_O, d_model, d_model)
