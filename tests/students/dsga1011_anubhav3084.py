"""Port of Anubhav3084/DS-GA-1011-NLP, assignment_2/student/modules.py (commit 1daa802): SoftmaxLayer, AttentionLayer,
MultiHeadSelfAttentionLayer and RoPE, a student's solution of NYU DS-GA 1011 (Natural Language Processing with
Representation Learning), fall 2025, assignment 2 (a Transformer language model from scratch, the `student` package
run through the course's tests/adapters.py).

Ports softmax (SoftmaxLayer), scaled_dot_product_attention (AttentionLayer), multi_head_attention
(MultiHeadSelfAttentionLayer.forward) and rope (RoPE). Conventions kept: `SoftmaxLayer(in_features, dim)` has no
default dim and no temperature and subtracts `torch.max(in_features, dim=dim, keepdim=True).values` (an all -inf slice
gives -inf - -inf = NaN); AttentionLayer computes `einsum(Query, Key, " ... n d_k, ... m d_k -> ... n m") /
math.sqrt(d_k)` with `d_k = Query.shape[-1]`, `torch.where(mask, Q_K_T, float('-inf'))` when a mask is given (True =
may attend), `SoftmaxLayer(masked_Q_K_T, dim=-1)` and returns only `einsum(probs, Value, ...)`; it has no scale
argument. MultiHeadSelfAttentionLayer.forward rearranges the projections " ... seq (heads d_k) -> ... heads seq d_k"
(head widths inferred from the projections), always builds its own `mask = torch.tril(torch.ones(seq_len, seq_len,
dtype=torch.bool))` (forward has no mask argument), calls AttentionLayer, merges " ... heads seq d_v -> ... seq (heads
d_v)" and applies `self.Output`. RoPE builds float32 tables `inv_freq = 1.0 / (theta ** (torch.arange(0, d_k, 2,
dtype=torch.float32) / d_k))`, `t = torch.arange(max_seq_len, dtype=torch.float32)`, cos/sin of their outer product,
indexes them with `self.cos_buffer[token_positions]` (integer positions only: a float index raises), casts them to
x's dtype and rotates the interleaved pairs `x.reshape(*x.shape[:-1], self.d_k // 2, 2)`.

Left out: the LinearLayer initialisation (the weights are set by the adapters, `...W.data = q_proj_weight`).
Added for the contract only: scaled_dot_product_attention returns (output, probs) and takes a `scale` parameter
(never read); softmax takes a `temperature` parameter (never read) and no default axis, as the student's; rope's
`base` is the student's theta and d_k is x.shape[-1]; W_Q, W_K, W_V and W_O are the LinearLayers' weights (x @ W);
the mask given to multi_head_attention is never read (the layer's RoPE is off: the adapter passes no positions);
max_seq_len (the caller's constructor argument) is 2048 here.
"""

import math

import numpy as np

MAX_SEQ_LEN = 2048  # RoPE's max_seq_len, the caller's constructor argument


def softmax(Z, axis, temperature=1.0):
    max_val_in_dim = np.max(Z, axis=axis, keepdims=True)
    adjusted_values = Z - max_val_in_dim
    exp_values = np.exp(adjusted_values)
    sum_values = np.sum(exp_values, axis=axis, keepdims=True)
    return exp_values / sum_values


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    d_k = Q.shape[-1]
    Q_K_T = np.einsum("...nd,...md->...nm", Q, K) / math.sqrt(d_k)
    masked_Q_K_T = np.where(mask, Q_K_T, -np.inf) if mask is not None else Q_K_T
    probs = softmax(masked_Q_K_T, axis=-1)
    return np.einsum("...nm,...mv->...nv", probs, V), probs


def _split_heads(M, heads):  # rearrange " ... seq (heads d) -> ... heads seq d"
    if M.shape[-1] % heads:
        raise ValueError(f"Shape mismatch, can't divide axis of length {M.shape[-1]} in chunks of {heads}")
    return np.swapaxes(M.reshape(*M.shape[:-1], heads, M.shape[-1] // heads), -2, -3)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    Q_out = _split_heads(X @ W_Q, num_heads)
    K_out = _split_heads(X @ W_K, num_heads)
    V_out = _split_heads(X @ W_V, num_heads)
    seq_len = X.shape[-2]
    causal = np.tril(np.ones((seq_len, seq_len), dtype=bool))
    multihead_attention, _ = scaled_dot_product_attention(Q_out, K_out, V_out, mask=causal)
    multihead_attention = np.swapaxes(multihead_attention, -2, -3)  # " ... heads seq d_v -> ... seq (heads d_v)"
    multihead_attention = multihead_attention.reshape(*multihead_attention.shape[:-2], -1)
    return multihead_attention @ W_O


def rope(x, positions, base=10000.0):
    d_k = x.shape[-1]
    inv_freq = (1.0 / (base ** (np.arange(0, d_k, 2, dtype=np.float32) / d_k))).astype(np.float32)
    t = np.arange(MAX_SEQ_LEN, dtype=np.float32)
    thetas = np.outer(t, inv_freq).astype(np.float32)
    cos_buffer, sin_buffer = np.cos(thetas), np.sin(thetas)
    cos_sliced = cos_buffer[np.asarray(positions)].astype(x.dtype)  # integer positions only
    sin_sliced = sin_buffer[np.asarray(positions)].astype(x.dtype)
    x_pairs = x.reshape(*x.shape[:-1], d_k // 2, 2)
    x0 = x_pairs[..., 0]
    x1 = x_pairs[..., 1]
    out0 = x0 * cos_sliced - x1 * sin_sliced
    out1 = x0 * sin_sliced + x1 * cos_sliced
    return np.stack([out0, out1], axis=-1).reshape(x.shape)
