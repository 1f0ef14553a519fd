"""Port of 73gon/implementing-transformer-models, modelling/attention.py (commit 3503217, "completed practical 5 and
6"; unchanged but for dropout when moved to model/attention.py in 0947f35): Attention and MultiHeadAttention, a
student's solution (winter 2025/26) of Heinrich Heine University Düsseldorf's practical course "Implementing
Transformer Models" (Carel van Niekerk and Hsien-Chin Lin): Practical II asks for an attention module
`Attention(mask_future)` with the inputs "query, key, value, mask=None", where the mask is the course's binary
padding mask (batch, key length), 1 = a real token, and the future mask is built inside; Practical V asks for
`MultiHeadAttention(d_model, n_heads, mask_future)` with bias-free nn.Linear projections `query_transform`,
`key_transform`, `value_transform`, `output_transform`, which the course's tests fill with `load_state_dict`.

Ports scaled_dot_product_attention (Attention.forward) and multi_head_attention (MultiHeadAttention.forward, which
calls the student's Attention).

Conventions kept: Attention.forward(q, k, v, mask=None) computes `torch.matmul(q, k.transpose(-2, -1)) /
math.sqrt(d_k)` with `d_k = q.size(-1)` (any leading axes; there is no scale argument); given a mask it casts it to
the scores' dtype, `if mask.dim() == 2: mask = mask.unsqueeze(1)` (the course's (batch, N_k) padding mask becomes
(batch, 1, N_k): a contract (N_q, N_k) mask becomes (N_q, 1, N_k), its first axis read as the batch), turns it into
an additive mask `torch.where(mask == 0, -1e9, 0.0)` and adds it to the scores (a finite fill: a fully masked row
keeps the softmax of its own scores); with mask_future it adds -1e9 above the diagonal; then `F.softmax(scores,
dim=-1)` and `torch.matmul(attn_weights, v)`. MultiHeadAttention.__init__ asserts `d_model % num_heads == 0`, sets
`self.head_dim = d_model // num_heads` and four `nn.Linear(d_model, d_model, bias=False)`; forward(q, k, v, mask)
reads `batch_size, q_len, _ = q.size()` and `_, k_len, _ = k.size()` (3-D only), projects, views each projection as
(batch_size, len, num_heads, head_dim), transposes and merges the heads into the batch, (batch_size * num_heads, len,
head_dim), repeats the mask for the heads with `mask.repeat_interleave(self.num_heads, dim=0)` (meant for the
(batch, N_k) padding mask: a contract (N, N) mask becomes (N * H, N), read by Attention as N * H padding rows), calls
`self.attention(Q, K, V, mask=mask)` (scale 1/sqrt(head_dim)), views the output back as (batch_size, num_heads, q_len,
head_dim), transposes, reshapes to (batch_size, q_len, self.d_model) and applies output_transform.

Left out: dropout (nn.Dropout after the output projection, added after the course in 0947f35; off at evaluation).
Added for the contract only: scaled_dot_product_attention is Attention(mask_future=False) (the contract's mask
carries any causal pattern) and returns (out, weights) (the student returns the output; the weights are its
softmax); `scale` is accepted and never read; in multi_head_attention d_model is X.shape[-1] and n_heads is
num_heads, W_Q, W_K, W_V and W_O are loaded as the course's tests load the weights, `load_state_dict` of
query_transform.weight = W_Q.T (and likewise), whose shape check raises unless every weight is (d_model, d_model);
self-attention passes X as query, key and value.
"""

import math

import numpy as np


def _softmax_last(scores):  # F.softmax(scores, dim=-1)
    e = np.exp(scores - np.max(scores, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def _attention(q, k, v, mask=None, mask_future=False):  # Attention.forward, returning the weights too
    d_k = q.shape[-1]
    scores = (q @ np.swapaxes(k, -2, -1)) / math.sqrt(d_k)
    if mask is not None:
        mask = np.asarray(mask).astype(scores.dtype)  # mask.to(dtype=scores.dtype)
        if mask.ndim == 2:
            mask = np.expand_dims(mask, 1)  # mask.unsqueeze(1)
        mask = np.where(mask == 0, -1e9, 0.0)
        scores = scores + mask
    if mask_future:
        q_len, k_len = scores.shape[-2], scores.shape[-1]
        future_bool = np.triu(np.ones((q_len, k_len), dtype=bool), k=1)
        future_mask = np.where(future_bool, -1e9, 0.0)[None]
        scores = scores + future_mask
    attn_weights = _softmax_last(scores)
    output = attn_weights @ v
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
    head_dim = d_model // num_heads
    state = _load_state_dict(d_model, query_transform=W_Q, key_transform=W_K, value_transform=W_V,
                             output_transform=W_O)
    q = k = v = X
    batch_size, q_len, _ = q.shape
    _, k_len, _ = k.shape
    Q = q @ state["query_transform"].T
    K = k @ state["key_transform"].T
    V = v @ state["value_transform"].T
    Q = Q.reshape(batch_size, q_len, num_heads, head_dim).swapaxes(1, 2)
    K = K.reshape(batch_size, k_len, num_heads, head_dim).swapaxes(1, 2)
    V = V.reshape(batch_size, k_len, num_heads, head_dim).swapaxes(1, 2)
    Q = Q.reshape(batch_size * num_heads, q_len, head_dim)
    K = K.reshape(batch_size * num_heads, k_len, head_dim)
    V = V.reshape(batch_size * num_heads, k_len, head_dim)
    if mask is not None:
        mask = np.repeat(np.asarray(mask), num_heads, axis=0)  # mask.repeat_interleave(self.num_heads, dim=0)
    out, _ = scaled_dot_product_attention(Q, K, V, mask=mask)  # self.attention: Attention(mask_future=False)
    out = out.reshape(batch_size, num_heads, q_len, head_dim).swapaxes(1, 2)
    out = out.reshape(batch_size, q_len, d_model)
    return out @ state["output_transform"].T
