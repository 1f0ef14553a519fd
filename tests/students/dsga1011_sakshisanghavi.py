"""Port of SakshiSanghavi/transformer-lm-from-scratch, student/training.py (commit e304e10) and student/modules.py:
softmax, scaled_dot_product_attention, MultiHeadSelfAttention and RoPE, a student's solution of NYU DS-GA 1011
(Natural Language Processing with Representation Learning), fall 2025, assignment 2 (a Transformer language model
from scratch: the course's `student` package run through its tests/adapters.py, the layout of Anubhav3084/DS-GA-1011-
NLP's assignment_2).

Ports softmax, scaled_dot_product_attention, multi_head_attention (MultiHeadSelfAttention.forward) and rope (RoPE).
Conventions kept: `softmax(x, dim)` has no default dim and no temperature and subtracts `torch.max(x, dim=dim,
keepdim=True)` (an all -inf slice gives NaN); scaled_dot_product_attention computes `einsum(Q, K, "... n d_k, ... m
d_k -> ... n m")` times `1 / math.sqrt(d_k)` (d_k = Q.shape[-1]), sets `masked_scores = torch.where(mask, scores,
float("-inf"))` only `if mask is not None` and then calls `softmax(masked_scores, -1)` in any case (without a mask
`masked_scores` is unbound: UnboundLocalError), and returns only the output; it has no scale argument.
MultiHeadSelfAttention builds `Linear(d_model, d_model)` for q_proj, k_proj, v_proj and out_proj, whose weights the
adapter loads with `load_state_dict` (a (d_model, d_model) shape check: every projection and the output must be D
wide); forward rearranges "... seq (heads d_k) -> ... heads seq d_k", always builds its own `mask =
torch.tril(torch.ones(seq_len, seq_len, dtype=torch.bool))` (forward has no mask argument), calls
`t.scaled_dot_product_attention(q, k, v, mask=mask)`, merges "... heads seq d_k -> ... seq (heads d_k)" and applies
`self.out_proj`. RoPE builds float32 tables `freq = 1.0 / (theta ** (2 * k/d_k))` for `k = torch.arange(0, d_k//2)`
and positions `torch.arange(max_seq_length)`, indexes them with `self.cos[token_positions]` (integer positions only:
a float index raises) and writes `x_even * cos - x_odd * sin`, `x_even * sin + x_odd * cos` back interleaved
(`rearrange([...], "two ... d -> ... (d two)")`).

Left out: nothing of the attention path (the Linear layers have no bias). Added for the contract only:
scaled_dot_product_attention returns (attention, attention_probs) and takes a `scale` parameter (never read); softmax
takes a `temperature` parameter (never read) and names its dim `axis`, still without a default; d_model is
X.shape[-1] (the constructor's argument); W_Q, W_K, W_V and W_O are the Linear layers' weights (their `W` is the
transpose, x @ W); the mask given to multi_head_attention is never read (the layer's RoPE is off: the adapter passes
no theta); rope's `base` is the student's theta, d_k is x.shape[-1] and max_seq_length (the caller's constructor
argument) is 2048 here.
"""

import math

import numpy as np

MAX_SEQ_LENGTH = 2048  # RoPE's max_seq_length, the caller's constructor argument


def softmax(Z, axis, temperature=1.0):
    max_ = np.max(Z, axis=axis, keepdims=True)
    x = Z - max_
    exp = np.exp(x)
    sum_exp = np.sum(exp, axis=axis, keepdims=True)
    return exp / sum_exp


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    scores = np.einsum("...nd,...md->...nm", Q, K)
    d_k = Q.shape[-1]
    scores = scores * (1 / math.sqrt(d_k))
    if mask is not None:
        masked_scores = np.where(mask, scores, -np.inf)
    attention_probs = softmax(masked_scores, -1)  # unbound without a mask, as in the student's code
    attention = np.einsum("...nm,...mv->...nv", attention_probs, V)
    return attention, attention_probs


def _rearrange_heads(M, heads):  # rearrange "... seq (heads d_k) -> ... heads seq d_k"
    if M.shape[-1] % heads:
        raise ValueError(f"Shape mismatch, can't divide axis of length {M.shape[-1]} in chunks of {heads}")
    return np.swapaxes(M.reshape(*M.shape[:-1], heads, M.shape[-1] // heads), -2, -3)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]
    for name, W in (("q_proj.W", W_Q), ("k_proj.W", W_K), ("v_proj.W", W_V), ("out_proj.W", W_O)):
        if W.T.shape != (d_model, d_model):  # load_state_dict into Linear(d_model, d_model)
            raise RuntimeError(f"size mismatch for {name}: copying a param with shape {W.T.shape}, the shape in "
                               f"current model is {(d_model, d_model)}")
    seq_len = X.shape[-2]
    q = _rearrange_heads(X @ W_Q, num_heads)
    k = _rearrange_heads(X @ W_K, num_heads)
    v = _rearrange_heads(X @ W_V, num_heads)
    causal = np.tril(np.ones((seq_len, seq_len), dtype=bool))
    attention, _ = scaled_dot_product_attention(q, k, v, mask=causal)
    merged = np.swapaxes(attention, -2, -3)  # "... heads seq d_k -> ... seq (heads d_k)"
    merged = merged.reshape(*merged.shape[:-2], -1)
    return merged @ W_O


def rope(x, positions, base=10000.0):
    d_k = x.shape[-1]
    k = np.arange(0, d_k // 2)
    freq = (1.0 / (base ** (2 * k / d_k))).astype(np.float32)
    angles = np.outer(np.arange(MAX_SEQ_LENGTH), freq).astype(np.float32)
    cos_table, sin_table = np.cos(angles), np.sin(angles)
    cos = cos_table[np.asarray(positions)]  # integer positions only
    sin = sin_table[np.asarray(positions)]
    x_even = x[..., 0::2]
    x_odd = x[..., 1::2]
    rotate_even = x_even * cos - x_odd * sin
    rotate_odd = x_even * sin + x_odd * cos
    return np.stack([rotate_even, rotate_odd], axis=-1).reshape(*rotate_even.shape[:-1], -1)
