"""Port of rahisenpai/CSE556-NLP, assignment3/task1/task1.ipynb (commit d6129f1, "final updates in task1", 6 April
2025): pairwise_similarities, attention_scaled, attention_softmax, compute_outputs, make_causal_mask,
apply_causal_mask, split_heads, merge_heads, self_attention and MultiHeadAttention, a student team's (group 35)
solution of IIIT Delhi's CSE556 Natural Language Processing (winter 2025), assignment 3, task 1 "Transformer from
scratch" (a Transformer language model trained on Shakespeare; the course's task1_code_template.ipynb gives the stubs
initialise_projections, pairwise_similarities, attention_scaled, attention_softmax, compute_outputs, make_causal_mask,
apply_causal_mask, split_heads, merge_heads, self_attention and split_heads_qkv, and empty TransformerLM,
TransformerBlock and MultiHeadAttention classes, which the students write).

Ports attention_scores (pairwise_similarities), softmax (attention_softmax), causal_mask (make_causal_mask),
scaled_dot_product_attention (self_attention) and multi_head_attention (MultiHeadAttention.forward).

Conventions kept: pairwise_similarities(query, key) is `torch.matmul(query, key.transpose(-2, -1))`;
attention_scaled(similarities, dim_key) is `similarities / np.sqrt(dim_key)`; attention_softmax is
`F.softmax(similarities, dim=-1)` (the last axis, no temperature; an all -inf slice is NaN); compute_outputs is
`torch.matmul(attention_scores, values)`; make_causal_mask(seq_len) is `torch.tril(torch.ones(seq_len,
seq_len)).bool()` (True = may attend, square); apply_causal_mask(similarities, mask) is
`similarities.masked_fill(mask == 0, float("-inf"))`; self_attention(query, key, value, mask=None) scales the
similarities by `key.size(-1)`, masks them when a mask is given, and returns `(outputs, attention)`. split_heads(x,
num_heads, head_dim) reads `batch_size, seq_len, dim = x.size()` (3-D only) and returns `x.view(batch_size, seq_len,
num_heads, head_dim).transpose(1, 2)`; merge_heads(x) views `(batch_size, seq_len, num_heads * head_dim)` back.
MultiHeadAttention(d_model, nhead) sets `self.head_dim = d_model // nhead`, asserts `self.head_dim * nhead ==
d_model`, `self.q_proj, self.k_proj, self.v_proj = initialise_projections(d_model, d_model)` (three `nn.Linear(dim_in,
dim_out)`) and `self.out_proj = nn.Linear(d_model, d_model)`; its forward(query, key, value, mask=None) projects,
splits q, k AND v with `split_heads_qkv(q, k, v, self.nhead, self.head_dim)`, runs `self_attention(q, k, v, mask)`
(the mask as given, on the (B, H, N, N) scores), merges the heads and applies `self.out_proj`.

Left out: the Linear layers' biases (zero here: the contract has none), dropout, the DEVICE of the mask. Added for the
contract only: softmax(Z, axis, temperature) is attention_softmax(Z) (axis and temperature are never read);
causal_mask(n_q, n_k) is make_causal_mask(n_q) (n_k has no counterpart); scaled_dot_product_attention takes a `scale`
parameter (never read); multi_head_attention is MultiHeadAttention(d_model = X.shape[-1], nhead =
num_heads).forward(X, X, X, mask) (TransformerBlock calls `self.attention(x, x, x, mask)`) with W_Q, W_K, W_V and W_O
given to q_proj, k_proj, v_proj and out_proj as their weights (x @ W for the Linear's x @ weight.T): a weight that is
not (D, D) raises, as copying it into the layer does; it returns the output (the team's forward also returns the
weights).
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


def pairwise_similarities(query, key):
    return query @ np.swapaxes(key, -2, -1)


def attention_scores(Q, K):
    return pairwise_similarities(Q, K)


def attention_scaled(similarities, dim_key):
    return similarities / np.sqrt(dim_key)


def attention_softmax(similarities):
    return _softmax(similarities)


def softmax(Z, axis=-1, temperature=1.0):
    return attention_softmax(np.asarray(Z))


def compute_outputs(attention_scores, values):
    return attention_scores @ values


def make_causal_mask(seq_len):
    mask = np.tril(np.ones((seq_len, seq_len)))
    return mask.astype(bool)


def causal_mask(n_q, n_k=None):
    return make_causal_mask(n_q)


def apply_causal_mask(similarities, mask):
    return _masked_fill(similarities, mask == 0, -np.inf)


def split_heads(x, num_heads, head_dim):
    batch_size, seq_len, _dim = x.shape
    x = x.reshape(batch_size, seq_len, num_heads, head_dim)
    return np.swapaxes(x, 1, 2)


def merge_heads(x):
    batch_size, num_heads, seq_len, head_dim = x.shape
    x = np.swapaxes(x, 1, 2)
    return x.reshape(batch_size, seq_len, num_heads * head_dim)


def self_attention(query, key, value, mask=None):
    similarities = pairwise_similarities(query, key)
    dim_key = key.shape[-1]
    scaled_similarities = attention_scaled(similarities, dim_key)
    if mask is not None:
        scaled_similarities = apply_causal_mask(scaled_similarities, mask)
    attention = attention_softmax(scaled_similarities)
    outputs = compute_outputs(attention, value)
    return outputs, attention


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    return self_attention(Q, K, V, mask)


def split_heads_qkv(query, key, value, num_heads, head_dim):
    query = split_heads(query, num_heads, head_dim)
    key = split_heads(key, num_heads, head_dim)
    value = split_heads(value, num_heads, head_dim)
    return query, key, value


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model, nhead = X.shape[-1], num_heads
    head_dim = d_model // nhead
    assert head_dim * nhead == d_model, "d_model must be divisible by nhead"
    query = key = value = X
    q = _linear(query, W_Q, d_model, d_model)  # self.q_proj(query)
    k = _linear(key, W_K, d_model, d_model)
    v = _linear(value, W_V, d_model, d_model)
    q, k, v = split_heads_qkv(q, k, v, nhead, head_dim)
    attn_output, _attn_weights = self_attention(q, k, v, mask)
    attn_output = merge_heads(attn_output)
    return _linear(attn_output, W_O, d_model, d_model)  # self.out_proj
