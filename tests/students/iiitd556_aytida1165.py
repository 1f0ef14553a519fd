"""Port of AyTIDa1165/CSE556-NLP-Natural_Language_Processing, NLPA3/task1/task1.ipynb (commit 791e81b, "Assignment 3
Completed", 6 April 2025): make_causal_mask and MultiHeadAttention, a student team's solution of IIIT Delhi's CSE556
Natural Language Processing (winter 2025), assignment 3, task 1 "Transformer from scratch" (a Transformer language
model trained on Shakespeare; the course's task1_code_template.ipynb gives the stubs initialise_projections,
pairwise_similarities, attention_scaled, attention_softmax, compute_outputs, make_causal_mask, apply_causal_mask,
split_heads, merge_heads, self_attention and split_heads_qkv, and empty TransformerLM, TransformerBlock and
MultiHeadAttention classes, which the students write; this team wrote make_causal_mask and a MultiHeadAttention with
its own _split_heads and _merge_heads, and calls PyTorch's F.scaled_dot_product_attention for the attention itself).

Ports causal_mask (make_causal_mask) and multi_head_attention (MultiHeadAttention.forward).

Conventions kept: make_causal_mask(seq_len) is `torch.triu(torch.ones(seq_len, seq_len, dtype=torch.bool),
diagonal=1)` ("True values will be masked out in F.scaled_dot_product_attention": True = masked, square; PyTorch's SDPA
reads a boolean mask the other way round). MultiHeadAttention(d_model, num_heads) asserts `d_model % num_heads == 0`,
sets `self.d_k = d_model // num_heads` and four `nn.Linear(d_model, d_model, bias=False)` (W_q, W_k, W_v, W_o);
_split_heads(x) reads `batch_size, seq_len, _ = x.size()` (3-D only) and returns `x.view(batch_size, seq_len,
self.num_heads, self.d_k).transpose(1, 2)` (every head self.d_k wide, values included); _merge_heads(x) returns
`x.transpose(1, 2).contiguous().view(batch_size, seq_len, self.d_model)` (the input's width); forward(query, key,
value, mask=None) projects, splits, runs `F.scaled_dot_product_attention(Q, K, V, attn_mask=mask, dropout_p=...,
is_causal=(mask is not None and mask.is_cuda))` (PyTorch: scale 1/sqrt(Q.size(-1)), a boolean attn_mask True = may
attend, broadcast against the (B, H, N, N) scores as it is given; on the CPU is_causal is False), merges and applies
W_o, and returns `(output, None)`.

Left out: dropout (rate 0 at evaluation), the DEVICE transfers. Added for the contract only: causal_mask(n_q, n_k) is
make_causal_mask(n_q) (n_k has no counterpart); multi_head_attention is MultiHeadAttention(d_model = X.shape[-1],
num_heads).forward(X, X, X, mask) on the CPU (TransformerBlock passes x as query, key and value) with W_Q, W_K, W_V and
W_O given to W_q, W_k, W_v and W_o as their weights (x @ W for the Linear's x @ weight.T): a weight that is not (D, D)
raises, as copying it into the layer does; it returns the output; F.scaled_dot_product_attention is _sdpa below (a
fully masked row gives zero weights, as the contract says PyTorch's SDPA does).
"""

import math

import numpy as np


def _linear(x, W, in_features, out_features):  # nn.Linear(in_features, out_features) holding weight W.T
    W = np.asarray(W)
    if W.shape != (in_features, out_features):
        raise RuntimeError(f"size mismatch: weight of shape {W.T.shape} for nn.Linear({in_features}, "
                           f"{out_features}), whose weight is {(out_features, in_features)}")
    return x @ W


def _sdpa(query, key, value, attn_mask=None, is_causal=False):  # F.scaled_dot_product_attention (no dropout)
    scores = query @ np.swapaxes(key, -2, -1) * (1.0 / math.sqrt(query.shape[-1]))
    if is_causal:
        n_q, n_k = scores.shape[-2:]
        scores = np.where(np.tril(np.ones((n_q, n_k), dtype=bool)), scores, -np.inf)
    if attn_mask is not None:
        scores = scores + np.where(attn_mask, 0.0, -np.inf)  # a boolean attn_mask: True = take part in attention
    top = np.max(scores, axis=-1, keepdims=True)
    E = np.exp(scores - np.where(np.isneginf(top), 0.0, top))
    total = np.sum(E, axis=-1, keepdims=True)
    return (E / np.where(total == 0.0, 1.0, total)) @ value


def make_causal_mask(seq_len):
    mask = np.triu(np.ones((seq_len, seq_len), dtype=bool), k=1)
    return mask  # True values will be masked out in F.scaled_dot_product_attention


def causal_mask(n_q, n_k=None):
    return make_causal_mask(n_q)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]
    assert d_model % num_heads == 0
    d_k = d_model // num_heads  # Dimension of each head

    def _split_heads(x):
        batch_size, seq_len, _ = x.shape
        return np.swapaxes(x.reshape(batch_size, seq_len, num_heads, d_k), 1, 2)

    def _merge_heads(x):
        batch_size, _, seq_len, _ = x.shape
        return np.swapaxes(x, 1, 2).reshape(batch_size, seq_len, d_model)

    query = key = value = X
    Q = _split_heads(_linear(query, W_Q, d_model, d_model))
    K = _split_heads(_linear(key, W_K, d_model, d_model))
    V = _split_heads(_linear(value, W_V, d_model, d_model))
    attn_output = _sdpa(Q, K, V, attn_mask=mask, is_causal=False)  # mask is not None and mask.is_cuda: CPU
    output = _merge_heads(attn_output)
    return _linear(output, W_O, d_model, d_model)
