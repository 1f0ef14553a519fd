"""Port of leonardebinger/transformer_project, modelling/attention.py (commit dbd1d10, February 2026): Attention and
MultiHeadAttention, a student's solution (winter 2025/26) of Heinrich Heine University Düsseldorf's practical course
"Implementing Transformer Models" (Carel van Niekerk and Hsien-Chin Lin): Practical II asks for an attention module
`Attention(mask_future)` taking "query, key, value, mask=None", where the mask is the course's binary padding mask
(batch, key length), 1 = a real token, and the future mask is built inside; Practical V asks for
`MultiHeadAttention(d_model, n_heads, mask_future)` with bias-free nn.Linear projections `query_transform`,
`key_transform`, `value_transform`, `output_transform`, which the course's tests fill with `load_state_dict`.

Ports scaled_dot_product_attention (Attention.forward) and multi_head_attention (MultiHeadAttention.forward, which
computes its heads' attention itself).

Conventions kept: Attention.forward(query, key, value, mask=None) computes `torch.matmul(query, key.transpose(-2, -1))
/ math.sqrt(d_k)` with `d_k = query.size(-1)` (any leading axes; there is no scale argument), given a mask `mask =
mask.unsqueeze(1)` (the docstring's "(batch, seq_len_k) -> (batch, 1, seq_len_k)": a contract (N_q, N_k) mask becomes
(N_q, 1, N_k), its first axis read as the batch) and `scores.masked_fill(mask == 0, float('-inf'))` (out of place, so
mask and scores broadcast), the future mask when asked (from `query.size(1)` and `key.size(1)`), `torch.softmax(scores,
dim=-1)`, `torch.nan_to_num(attn_weights, nan=0.0)` (an all -inf row becomes zeros) and `torch.matmul(attn_weights,
value)`. MultiHeadAttention(d_model, num_heads, mask_future=False) asserts `d_model % num_heads == 0`, sets `self.d_k =
d_model // num_heads` and four `nn.Linear(d_model, d_model, bias=False)`; forward(query, key, value, mask=None) reads
`batch_size = query.size(0)`, `seq_len_q = query.size(1)`, `seq_len_k = key.size(1)`, views each projection as
(batch_size, len, num_heads, d_k) and transposes it (3-D input only), computes `torch.matmul(q, k.transpose(-2, -1))
/ math.sqrt(self.d_k)`, given a mask `mask = mask.unsqueeze(1).unsqueeze(2)` ("(batch, seq_len_k) -> (batch, 1, 1,
seq_len_k)": a contract (N, N) mask becomes (N, 1, 1, N), its rows read as the sequences) and `masked_fill(mask == 0,
float('-inf'))`, the future mask when asked, softmax, `torch.nan_to_num(attn_weights, nan=0.0)`, `torch.matmul(
attn_weights, v)`, `context.transpose(1, 2).contiguous().view(batch_size, seq_len_q, self.d_model)` and
output_transform.

Left out: nothing (no dropout in these modules). Added for the contract only: scaled_dot_product_attention is
Attention(mask_future=False) (the contract's mask carries any causal pattern) and returns (out, weights) (the student
returns the output; the weights are its softmax after nan_to_num); `scale` is accepted and never read; in
multi_head_attention d_model is X.shape[-1] and num_heads is num_heads, W_Q, W_K, W_V and W_O are loaded as the
course's tests load the weights, `load_state_dict` of query_transform.weight = W_Q.T (and likewise), whose shape check
raises unless every weight is (d_model, d_model); self-attention passes X as query, key and value.
"""

import math

import numpy as np


def _softmax_last(x):  # torch.softmax(x, dim=-1): an all -inf row gives NaN
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def _view(x, *shape):  # Tensor.view: the same number of entries
    if int(np.prod(shape)) != x.size:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {x.size}")
    return x.reshape(shape)


def _attention(query, key, value, mask=None, mask_future=False):  # Attention.forward, returning the weights too
    d_k = query.shape[-1]
    scores = (query @ np.swapaxes(key, -2, -1)) / math.sqrt(d_k)
    if mask is not None:
        mask = np.expand_dims(np.asarray(mask), 1)  # mask.unsqueeze(1)
        scores = np.where(mask == 0, float("-inf"), scores)  # masked_fill, out of place
    if mask_future:
        seq_len_q = query.shape[1]
        seq_len_k = key.shape[1]
        future_mask = np.triu(np.ones((seq_len_q, seq_len_k)), k=1).astype(bool)
        scores = np.where(future_mask, float("-inf"), scores)
    with np.errstate(invalid="ignore"):
        attn_weights = _softmax_last(scores)
    attn_weights = np.nan_to_num(attn_weights, nan=0.0)
    output = attn_weights @ value
    return output, attn_weights


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    return _attention(Q, K, V, mask=mask)


def _load_state_dict(d_model, **weights):  # load_state_dict into nn.Linear(d_model, d_model): a size check
    state = {}
    for name, W in weights.items():
        weight = np.asarray(W).T  # nn.Linear stores (out_features, in_features)
        if weight.shape != (d_model, d_model):
            raise RuntimeError(f"Error(s) in loading state_dict for MultiHeadAttention: size mismatch for {name}: "
                               f"copying a param with shape {weight.shape} from checkpoint, the shape in current "
                               f"model is {(d_model, d_model)}.")
        state[name] = weight
    return state


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]
    assert d_model % num_heads == 0, "d_model must be divisible by num_heads"
    d_k = d_model // num_heads
    state = _load_state_dict(d_model, query_transform=W_Q, key_transform=W_K, value_transform=W_V,
                             output_transform=W_O)
    query = key = value = X
    batch_size = query.shape[0]
    seq_len_q = query.shape[1]
    seq_len_k = key.shape[1]
    q = _view(query @ state["query_transform"].T, batch_size, seq_len_q, num_heads, d_k).swapaxes(1, 2)
    k = _view(key @ state["key_transform"].T, batch_size, seq_len_k, num_heads, d_k).swapaxes(1, 2)
    v = _view(value @ state["value_transform"].T, batch_size, seq_len_k, num_heads, d_k).swapaxes(1, 2)
    scores = (q @ np.swapaxes(k, -2, -1)) / math.sqrt(d_k)
    if mask is not None:
        mask = np.expand_dims(np.asarray(mask), (1, 2))  # mask.unsqueeze(1).unsqueeze(2)
        scores = np.where(mask == 0, float("-inf"), scores)  # masked_fill, out of place
    with np.errstate(invalid="ignore"):
        attn_weights = _softmax_last(scores)
    attn_weights = np.nan_to_num(attn_weights, nan=0.0)
    context = attn_weights @ v
    context = _view(context.swapaxes(1, 2), batch_size, seq_len_q, d_model)
    return context @ state["output_transform"].T
