"""Port of rishipendyala/CSE556-Natural-Language-Processing, "Assignment_3/Task 1/task1.ipynb" (commit d844672; its
attention code is the same since 7c43724, "Task1 fine-tuned", 2 April 2025): attention_softmax, pairwise_similarities,
make_causal_mask, apply_causal_mask, split_heads, merge_heads, self_attention and MultiHeadAttention, a student
team's (group 66) solution of IIIT Delhi's CSE556 Natural Language Processing (winter 2025), assignment 3, task 1
"Transformer from scratch" (a word-level Transformer language model trained on Shakespeare; the course's
task1_code_template.ipynb gives the stubs initialise_projections, pairwise_similarities, attention_scaled,
attention_softmax, compute_outputs, make_causal_mask, apply_causal_mask, split_heads, merge_heads, self_attention and
split_heads_qkv, and empty TransformerLM, TransformerBlock and MultiHeadAttention classes, which the students write).

Ports attention_scores (pairwise_similarities), softmax (attention_softmax), causal_mask (make_causal_mask),
scaled_dot_product_attention (self_attention) and multi_head_attention (MultiHeadAttention.forward).

Conventions kept: pairwise_similarities(Q, K) is `torch.matmul(Q, K.transpose(-2, -1))`; attention_softmax is
`F.softmax(scaled_similarities, dim=-1)` (the last axis, no temperature; an all -inf slice is NaN);
make_causal_mask(size) is `torch.triu(torch.ones(size, size), diagonal=1) == 0` (bool, True = may attend, square);
apply_causal_mask(attention_scores, mask) is `attention_scores.masked_fill(~mask, float('-inf'))`;
self_attention(Q, K, V, mask=None) computes `similarities = pairwise_similarities(Q, K)`, masks them when a mask is
given, then `attention_softmax(similarities)` and returns `(compute_outputs(attention, V), attention)`: the team's
attention_scaled (`similarities / np.sqrt(d_k)`) is never called, so the scores are not scaled. split_heads(x,
n_heads) reads `batch_size, seq_len, d_model = x.size()` (3-D only) and returns `x.view(batch_size, seq_len, n_heads,
-1).transpose(1, 2)`; merge_heads(x) reads `batch_size, n_heads, seq_len, d_k = x.size()` and returns
`x.transpose(1, 2).contiguous().view(batch_size, seq_len, n_heads * d_k)`. MultiHeadAttention(d_model, n_heads) has
`self.Q`, `self.K`, `self.V` and `self.out`, each `nn.Linear(d_model, d_model)`; its forward(x, mask=None) splits
`self.Q(x)`, `self.K(x)` and `self.V(x)` into heads, runs `self_attention(Q, K, V, mask)` (the mask as given, on the
(B, H, N, N) scores), merges the heads and applies `self.out`.

Left out: the Linear layers' biases (zero here: the contract has none), dropout, the DEVICE transfers, float32
arithmetic, the unused `self.d_k = d_model // n_heads`. Added for the contract only: softmax(Z, axis, temperature) is
attention_softmax(Z) (axis and temperature are never read); causal_mask(n_q, n_k) is make_causal_mask(n_q) (n_k has
no counterpart); scaled_dot_product_attention takes a `scale` parameter (never read); multi_head_attention is
MultiHeadAttention(d_model = X.shape[-1], n_heads = num_heads).forward(X, mask) with W_Q, W_K, W_V and W_O given to
self.Q, self.K, self.V and self.out as their weights (x @ W for the Linear's x @ weight.T): a weight that is not (D,
D) raises, as copying it into the layer does; it returns the output (the team's forward also returns the weights).
"""

import numpy as np


def _softmax(A):  # F.softmax(A, dim=-1): an all -inf slice is -inf - (-inf) = NaN
    E = np.exp(A - np.max(A, axis=-1, keepdims=True))
    return E / np.sum(E, axis=-1, keepdims=True)


def _masked_fill(A, where, value):  # torch's masked_fill: the mask broadcasts to A's shape
    return np.where(np.broadcast_to(where, np.shape(A)), value, A)


def _linear(x, W, in_features, out_features):  # nn.Linear(in_features, out_features) holding weight W.T
    W = np.asarray(W)
    if W.shape != (in_features, out_features):
        raise RuntimeError(f"size mismatch: weight of shape {W.T.shape} for nn.Linear({in_features}, "
                           f"{out_features}), whose weight is {(out_features, in_features)}")
    return x @ W


def pairwise_similarities(Q, K):
    return Q @ np.swapaxes(K, -2, -1)


def attention_scores(Q, K):
    return pairwise_similarities(Q, K)


def attention_softmax(scaled_similarities):
    return _softmax(scaled_similarities)


def softmax(Z, axis=-1, temperature=1.0):
    return attention_softmax(np.asarray(Z))


def compute_outputs(attention, V):
    return attention @ V


def make_causal_mask(size):
    mask = np.triu(np.ones((size, size)), k=1)
    return mask == 0


def causal_mask(n_q, n_k=None):
    return make_causal_mask(n_q)


def apply_causal_mask(attention_scores, mask):
    return _masked_fill(attention_scores, ~mask, -np.inf)


def split_heads(x, n_heads):
    batch_size, seq_len, _d_model = x.shape
    return np.swapaxes(x.reshape(batch_size, seq_len, n_heads, -1), 1, 2)


def merge_heads(x):
    batch_size, n_heads, seq_len, d_k = x.shape
    return np.swapaxes(x, 1, 2).reshape(batch_size, seq_len, n_heads * d_k)


def self_attention(Q, K, V, mask=None):
    similarities = pairwise_similarities(Q, K)
    if mask is not None:
        similarities = apply_causal_mask(similarities, mask)
    attention = attention_softmax(similarities)
    return compute_outputs(attention, V), attention


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    return self_attention(Q, K, V, mask)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model, n_heads = X.shape[-1], num_heads
    Q = split_heads(_linear(X, W_Q, d_model, d_model), n_heads)  # self.Q(x)
    K = split_heads(_linear(X, W_K, d_model, d_model), n_heads)
    V = split_heads(_linear(X, W_V, d_model, d_model), n_heads)
    x, _attention = self_attention(Q, K, V, mask)
    x = merge_heads(x)
    return _linear(x, W_O, d_model, d_model)  # self.out
