"""Port of harsh22201/CSE556-Natural-Language-Processing, "Assignment3/Task 1 - Transformer from Scratch/task1.ipynb"
(commit dbb7866, uploaded 1 May 2025): pairwise_similarities, attention_scaled, attention_softmax, compute_outputs,
make_causal_mask, apply_causal_mask, split_heads, merge_heads and MultiHeadAttention, a student team's (group 43)
solution of IIIT Delhi's CSE556 Natural Language Processing (winter 2025), assignment 3, task 1 "Transformer from
scratch" (a word-level Transformer language model trained on Shakespeare; the course's task1_code_template.ipynb gives
the stubs initialise_projections, pairwise_similarities, attention_scaled, attention_softmax, compute_outputs,
make_causal_mask, apply_causal_mask, split_heads, merge_heads, self_attention and split_heads_qkv, and empty
TransformerLM, TransformerBlock and MultiHeadAttention classes, which the students write; this team wrote no
self_attention).

Ports attention_scores (pairwise_similarities), softmax (attention_softmax), causal_mask (make_causal_mask),
scaled_dot_product_attention (the attention steps of MultiHeadAttention.forward) and multi_head_attention
(MultiHeadAttention.forward).

Conventions kept: pairwise_similarities(Q, K) is `torch.matmul(Q, K.transpose(-2, -1))`; attention_scaled(scores,
d_k) is `scores / math.sqrt(d_k)`; attention_softmax is `F.softmax(scaled_scores, dim=-1)` (the last axis, no
temperature; an all -inf slice is NaN); compute_outputs(attention_scores, V) is `torch.matmul(attention_scores, V)`;
make_causal_mask(seq_len) is `torch.tril(torch.ones(seq_len, seq_len, dtype=torch.bool))` returned as
`mask.unsqueeze(0).unsqueeze(0)` ("Shape: (1, 1, seq_len, seq_len)"); apply_causal_mask(attention_scores, mask) is
`attention_scores.masked_fill(~mask, float('-inf'))`; split_heads(x, heads) reads `batch_size, seq_len, embed_dim =
x.size()` (3-D only), `head_dim = embed_dim // heads` and returns `x.view(batch_size, seq_len, heads,
head_dim).permute(0, 2, 1, 3)`; merge_heads permutes back and views `(batch_size, seq_len, heads * head_dim)`.
MultiHeadAttention(embed_dim, heads) sets `self.head_dim = embed_dim // heads`, `self.Q_proj, self.K_proj, self.V_proj
= initialise_projections(embed_dim, embed_dim)` (three `nn.Linear(input_dim, proj_dim)`) and `self.fc_out =
nn.Linear(embed_dim, embed_dim)`; its forward(key, query, value, mask=None) projects, splits with split_heads_qkv,
then `scores = pairwise_similarities(Q, K)`, `apply_causal_mask(scores, mask)` when a mask is given (the mask as
given, on the (B, H, N, N) scores), `attention_scaled(scores, self.head_dim)`, attention_softmax, compute_outputs,
merge_heads and `self.fc_out`.

Left out: the Linear layers' biases (zero here: the contract has none), the DEVICE of the mask. Added for the contract
only: softmax(Z, axis, temperature) is attention_softmax(Z) (axis and temperature are never read); causal_mask(n_q,
n_k) is make_causal_mask(n_q) (n_k has no counterpart); scaled_dot_product_attention(Q, K, V, mask, scale) runs the
steps forward runs on the heads (pairwise_similarities, apply_causal_mask when a mask is given, attention_scaled with
self.head_dim, the width of the heads it receives, i.e. Q.shape[-1], attention_softmax, compute_outputs) and returns
(out, weights) (`scale` is never read); multi_head_attention is MultiHeadAttention(embed_dim = X.shape[-1], heads =
num_heads).forward(X, X, X, mask) (TransformerLM calls `layer(x, x, x, combined_mask)`) with W_Q, W_K, W_V and W_O
given to Q_proj, K_proj, V_proj and fc_out as their weights (x @ W for the Linear's x @ weight.T): a weight that is
not (D, D) raises, as copying it into the layer does.
"""

import math

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


def attention_scaled(scores, d_k):
    return scores / math.sqrt(d_k)


def attention_softmax(scaled_scores):
    return _softmax(scaled_scores)


def softmax(Z, axis=-1, temperature=1.0):
    return attention_softmax(np.asarray(Z))


def compute_outputs(attention_scores, V):
    return attention_scores @ V


def make_causal_mask(seq_len):
    mask = np.tril(np.ones((seq_len, seq_len), dtype=bool))
    return mask[None][None]  # Shape: (1, 1, seq_len, seq_len)


def causal_mask(n_q, n_k=None):
    return make_causal_mask(n_q)


def apply_causal_mask(attention_scores, mask):
    return _masked_fill(attention_scores, ~mask, -np.inf)


def split_heads(x, heads):
    batch_size, seq_len, embed_dim = x.shape
    head_dim = embed_dim // heads
    x = x.reshape(batch_size, seq_len, heads, head_dim)
    return x.transpose(0, 2, 1, 3)


def merge_heads(x):
    batch_size, heads, seq_len, head_dim = x.shape
    embed_dim = heads * head_dim
    x = x.transpose(0, 2, 1, 3)
    return x.reshape(batch_size, seq_len, embed_dim)


def split_heads_qkv(Q, K, V, heads):
    return split_heads(Q, heads), split_heads(K, heads), split_heads(V, heads)


def _attend(Q, K, V, mask, head_dim):  # the attention steps of MultiHeadAttention.forward
    scores = pairwise_similarities(Q, K)
    if mask is not None:
        scores = apply_causal_mask(scores, mask)
    scaled_scores = attention_scaled(scores, head_dim)
    attention = attention_softmax(scaled_scores)
    return compute_outputs(attention, V), attention


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    return _attend(Q, K, V, mask, Q.shape[-1])


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    embed_dim, heads = X.shape[-1], num_heads
    head_dim = embed_dim // heads  # self.head_dim
    key = query = value = X
    Q = _linear(query, W_Q, embed_dim, embed_dim)  # self.Q_proj(query)
    K = _linear(key, W_K, embed_dim, embed_dim)
    V = _linear(value, W_V, embed_dim, embed_dim)
    Q, K, V = split_heads_qkv(Q, K, V, heads)
    out, _attention = _attend(Q, K, V, mask, head_dim)
    out = merge_heads(out)
    return _linear(out, W_O, embed_dim, embed_dim)  # self.fc_out
