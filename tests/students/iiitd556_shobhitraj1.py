"""Port of shobhitraj1/CSE556-Natural-Language-Processing, "Assignment 3/A3-12/task1.ipynb" (commit 1b9714c, uploaded 6
May 2025): pairwise_similarities, attention_scaled, attention_softmax, compute_outputs, make_causal_mask,
apply_causal_mask, split_heads, merge_heads, self_attention and MultiHeadAttention, a student team's (group 12)
solution of IIIT Delhi's CSE556 Natural Language Processing (winter 2025), assignment 3, task 1 "Transformer from
scratch" (a word-level Transformer language model trained on Shakespeare; the course's task1_code_template.ipynb gives
the stubs initialise_projections, pairwise_similarities, attention_scaled, attention_softmax, compute_outputs,
make_causal_mask, apply_causal_mask, split_heads, merge_heads, self_attention and split_heads_qkv, and empty
TransformerLM, TransformerBlock and MultiHeadAttention classes, which the students write).

Ports attention_scores (pairwise_similarities), softmax (attention_softmax), causal_mask (make_causal_mask),
scaled_dot_product_attention (the attention steps of MultiHeadAttention.forward, which end in the team's
self_attention) and multi_head_attention (MultiHeadAttention.forward).

Conventions kept: pairwise_similarities(q, k) is `torch.bmm(q, k.transpose(1, 2))` (3-D only: bmm takes (b, n, m)
batches, and k.transpose(1, 2) needs 3 axes); attention_scaled(dot_prod) is `dot_prod / math.sqrt(dot_prod.size(-1))`
(the scores' last axis: the number of keys); attention_softmax is `F.softmax(attention_scores, dim=-1)` (the last
axis, no temperature; an all -inf slice is NaN); compute_outputs(values, attention_weights) is
`torch.bmm(attention_weights, values)`; make_causal_mask(seq_len) is `torch.triu(torch.ones(seq_len, seq_len),
diagonal=1)` then `mask.masked_fill(mask == 1, float("-inf"))` (additive float 0 / -inf, square);
apply_causal_mask(attention_scores, mask) is `attention_scores + mask` (the mask is additive); self_attention(
attention_scores, values) returns `(compute_outputs(values, attention_softmax(attention_scores)), attention_weights)`.
split_heads(input_tensor, num_heads) reads `batch_size, seq_len, d_model = input_tensor.size()` (3-D only), `d_head =
d_model // num_heads`, views `(batch_size, seq_len, num_heads, d_head)`, transposes (1, 2) and views `(batch_size *
num_heads, seq_len, d_head)`; merge_heads(output_tensor, num_heads) inverts it. MultiHeadAttention(d_model,
num_heads) sets `self.W_q, self.W_k, self.W_v = initialise_projections(d_model)` (three `nn.Linear(d_model, d_model,
bias=False)`) and `self.W_o = nn.Linear(d_model, d_model)`; its forward(Q, K, V, mask=None) projects, splits with
split_heads_qkv, computes `pairwise_similarities`, `attention_scaled`, `apply_causal_mask(attention_scores, mask)`
when a mask is given (the mask as given, added to the (B * H, N, N) scores), `self_attention`, merge_heads and
`self.W_o`.

Left out: W_o's bias (zero here: the contract has none), dropout, the DEVICE transfers. Added for the contract only:
softmax(Z, axis, temperature) is attention_softmax(Z) (axis and temperature are never read); causal_mask(n_q, n_k) is
make_causal_mask(n_q) (n_k has no counterpart); scaled_dot_product_attention(Q, K, V, mask, scale) runs the steps
forward runs on the heads (pairwise_similarities, attention_scaled, apply_causal_mask when a mask is given,
self_attention) and returns (out, weights) (`scale` is never read); multi_head_attention is MultiHeadAttention(d_model
= X.shape[-1], num_heads).forward(X, X, X, mask) (TransformerBlock calls `self.attention(x, x, x, mask=mask)`) with
W_Q, W_K, W_V and W_O given to W_q, W_k, W_v and W_o as their weights (x @ W for the Linear's x @ weight.T): a weight
that is not (D, D) raises, as copying it into the layer does; it returns the output (the team's forward also returns
the weights).
"""

import math

import numpy as np


def _softmax(A):  # F.softmax(A, dim=-1): an all -inf slice is -inf - (-inf) = NaN
    E = np.exp(A - np.max(A, axis=-1, keepdims=True))
    return E / np.sum(E, axis=-1, keepdims=True)


def _bmm(a, b):  # torch.bmm: two 3-D batches of the same length
    if a.ndim != 3 or b.ndim != 3:
        raise RuntimeError(f"batch1 and batch2 must be 3D tensors, got {a.ndim}-D and {b.ndim}-D")
    if a.shape[0] != b.shape[0]:
        raise RuntimeError(f"batch1 and batch2 must have the same batch size, got {a.shape[0]} and {b.shape[0]}")
    return a @ b


def _linear(x, W, in_features, out_features):  # nn.Linear(in_features, out_features) holding weight W.T
    W = np.asarray(W)
    if W.shape != (in_features, out_features):
        raise RuntimeError(f"size mismatch: weight of shape {W.T.shape} for nn.Linear({in_features}, "
                           f"{out_features}), whose weight is {(out_features, in_features)}")
    return x @ W


def pairwise_similarities(q, k):
    return _bmm(q, np.swapaxes(k, 1, 2))  # k.transpose(1, 2)


def attention_scores(Q, K):
    return pairwise_similarities(Q, K)


def attention_scaled(dot_prod):
    return dot_prod / math.sqrt(dot_prod.shape[-1])


def attention_softmax(attention_scores):
    return _softmax(attention_scores)


def softmax(Z, axis=-1, temperature=1.0):
    return attention_softmax(np.asarray(Z))


def compute_outputs(values, attention_weights):
    return _bmm(attention_weights, values)


def make_causal_mask(seq_len):
    mask = np.triu(np.ones((seq_len, seq_len)), k=1)
    return np.where(mask == 1, -np.inf, mask)  # mask.masked_fill(mask == 1, float("-inf"))


def causal_mask(n_q, n_k=None):
    return make_causal_mask(n_q)


def apply_causal_mask(attention_scores, mask):
    attention_scores = attention_scores + mask
    return attention_scores


def split_heads(input_tensor, num_heads):
    batch_size, seq_len, d_model = input_tensor.shape
    d_head = d_model // num_heads
    input_tensor = input_tensor.reshape(batch_size, seq_len, num_heads, d_head)
    input_tensor = np.swapaxes(input_tensor, 1, 2)
    return input_tensor.reshape(batch_size * num_heads, seq_len, d_head)


def merge_heads(output_tensor, num_heads):
    batch_size_times_heads, seq_len, d_head = output_tensor.shape
    batch_size = batch_size_times_heads // num_heads
    d_model = d_head * num_heads
    output_tensor = output_tensor.reshape(batch_size, num_heads, seq_len, d_head)
    return np.swapaxes(output_tensor, 1, 2).reshape(batch_size, seq_len, d_model)


def self_attention(attention_scores, values):
    attention_weights = attention_softmax(attention_scores)
    output = compute_outputs(values, attention_weights)
    return output, attention_weights


def split_heads_qkv(q, k, v, num_heads):
    return split_heads(q, num_heads), split_heads(k, num_heads), split_heads(v, num_heads)


def _attend(Q, K, V, mask):  # the attention steps of MultiHeadAttention.forward
    scores = pairwise_similarities(Q, K)
    scores = attention_scaled(scores)
    if mask is not None:
        scores = apply_causal_mask(scores, mask)
    return self_attention(scores, V)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    return _attend(Q, K, V, mask)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]
    Q_proj = _linear(X, W_Q, d_model, d_model)  # self.W_q(Q)
    K_proj = _linear(X, W_K, d_model, d_model)
    V_proj = _linear(X, W_V, d_model, d_model)
    Q_proj, K_proj, V_proj = split_heads_qkv(Q_proj, K_proj, V_proj, num_heads)
    attention_outputs, _attention_weights = _attend(Q_proj, K_proj, V_proj, mask)
    attention_outputs = merge_heads(attention_outputs, num_heads)
    return _linear(attention_outputs, W_O, d_model, d_model)  # self.W_o
