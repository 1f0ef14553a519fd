"""Port of rseck/BIU-DL-Sequences-3-transformers, code-and-data/attention.py (commit 6245c09): create_kqv_matrix, kqv,
attention_scores, create_causal_mask, self_attention, multi_head_attention_layer and CausalSelfAttention, a student's
solution (2024) of Bar-Ilan University's Deep Learning for Texts and Sequences, the assignment "Small Transformer
Language Models" (a character-level decoder-only transformer LM built on the course's skeleton, code-and-data.tgz: the
students fill in attention.py; the skeleton gives self_attention_layer, CausalSelfAttention and its output projection
`self.proj`).

Ports qkv_project (kqv over one fused kqv matrix), attention_scores, causal_mask (create_causal_mask),
scaled_dot_product_attention (self_attention over attention_scores, chained as the skeleton's self_attention_layer
chains them) and multi_head_attention (CausalSelfAttention.forward over multi_head_attention_layer).

Conventions kept: create_kqv_matrix(input_vector_dim, n_heads=1) is `nn.Linear(input_vector_dim, int((3 *
(input_vector_dim / n_heads))))`, one fused Linear per head whose output kqv names `k, q, v` in that order; kqv(x,
linear) runs `x = linear(x)`, reads `B, N, D = x.size()` (3-D only) and cuts `k, q, v = torch.split(x, D // 3, dim=2)`
(pieces of D // 3 columns, the last one shorter: unless the three blocks are equally wide there are more than three
pieces and the unpacking raises, or the pieces straddle the blocks). attention_scores(a, b) asserts `B1, N1, D1 =
a.size()`, `B2, N2, D2 = b.size()` (3-D only), `B1 == B2` and `D1 == D2`, and returns `b @ a.transpose(1, 2) /
math.sqrt(D1)` (scaled; the skeleton calls it as `attention_scores(k, q)`, and the student's comment reads
"result[batch_index][i][j] = dot(q_i, K_j)/sqrt(dim_k)": one row per query). create_causal_mask(embed_dim, n_heads,
max_context_len) returns `torch.tril(torch.ones((1, max_context_len, max_context_len)))` (float, a leading axis of 1,
square). self_attention(v, A, mask=None) asserts `B1, N1, D1 = v.size()`, `B2, N2, D2 = A.size()` (3-D only), `B1 ==
B2`, `N1 == N2` (as many keys as queries) and `N1 == D2`, then, given a mask, `M = mask[0, :N2, :N2]` (the course's (1,
L, L) buffer: the first entry of its leading axis, cut to N_q x N_q; a 2-D mask raises IndexError, and a (B, N, N) one
masks every sequence with sequence 0's rows) and `A = A.masked_fill(M == 0, float("-inf"))` (0/False = masked; out of
place, so mask and scores broadcast), and returns `F.softmax(A, dim=2) @ v` (an all -inf row is NaN).
multi_head_attention_layer(x, kqv_matrices, mask) reads `B, N, D = x.size()` (3-D only), runs the skeleton's
self_attention_layer (`k, q, v = kqv(x, kqv_matrix)`, `att = attention_scores(k, q)`, `self_attention(v, att,
attention_mask)`) for every head, then `torch.cat(sa_arr, dim=2)` and the skeleton's `assert sa.size() == x.size()`.
CausalSelfAttention(embed_dim, n_heads, max_context_len) asserts `embed_dim % n_heads == 0`, makes n_heads kqv matrices
`create_kqv_matrix(embed_dim, n_heads)` (heads of embed_dim // n_heads columns for the keys, queries AND values),
registers `create_causal_mask(embed_dim, n_heads, max_context_len)` as `self.mask`, and its forward(x) (no mask
argument: always causal) computes `sa = multi_head_attention_layer(x, self.kqv_matrices, self.mask)`, `sa =
self.dropout(sa)` and `self.proj(sa)` with `self.proj = nn.Linear(embed_dim, embed_dim)`.

Left out: dropout (the identity at evaluation), the Linear layers' biases (zero here: the contract has none), the DEBUG
initialisation in create_kqv_matrix, float32 arithmetic. Added for the contract only: qkv_project(X, W_Q, W_K, W_V) runs
kqv over the fused matrix [W_K | W_Q | W_V] (the student's k, q, v order) and returns (q, k, v); attention_scores(Q, K)
is the student's attention_scores(a, b) with a = K and b = Q, the roles the skeleton's call `attention_scores(k, q)`
gives them; scaled_dot_product_attention(Q, K, V, mask, scale) chains them as self_attention_layer does (the student's
`self_attention(V, attention_scores(K, Q), mask)`), returns (out, weights) (the student returns the output; the weights
are its softmax) and takes a `scale` parameter (never read); causal_mask(n_q, n_k) is create_causal_mask with
max_context_len = n_q (n_k has no counterpart); in multi_head_attention embed_dim is X.shape[-1] and n_heads is
num_heads, head h's kqv matrix is columns [h*d, (h+1)*d) of W_K, W_Q and W_V side by side with d = embed_dim // n_heads
(the student's width), self.proj is W_O, max_context_len is 128 (main.py: `seq_len = 128`, passed to TransformerLM as
max_context_len; more tokens raise), and the contract's `mask` is never read.
"""

import math

import numpy as np

MAX_CONTEXT_LEN = 128  # main.py: seq_len = 128, the model's max_context_len


def _torch_split(x, size, axis):  # torch.split(x, size, dim): pieces of `size`, the last one shorter
    return np.split(x, list(range(size, x.shape[axis], size)), axis=axis)


def _softmax(A, axis):  # F.softmax: an all -inf slice is -inf - (-inf) = NaN
    E = np.exp(A - np.max(A, axis=axis, keepdims=True))
    return E / np.sum(E, axis=axis, keepdims=True)


def _kqv(x, linear):
    x = x @ linear  # linear(x)
    _B, _N, D = x.shape
    k, q, v = _torch_split(x, D // 3, axis=2)
    return k, q, v


def qkv_project(X, W_Q, W_K, W_V):
    k, q, v = _kqv(X, np.concatenate([W_K, W_Q, W_V], axis=1))
    return q, k, v


def attention_scores(Q, K):
    a, b = K, Q  # the student's attention_scores(a, b), called as attention_scores(k, q)
    B1, _N1, D1 = a.shape
    B2, _N2, D2 = b.shape
    assert B1 == B2
    assert D1 == D2
    return b @ np.swapaxes(a, 1, 2) / math.sqrt(D1)


def _create_causal_mask(embed_dim, n_heads, max_context_len):
    return np.tril(np.ones((1, max_context_len, max_context_len), dtype=np.float32))


def causal_mask(n_q, n_k=None):
    return _create_causal_mask(None, None, n_q)


def _self_attention(v, A, mask=None):  # returns the softmax too, for the contract
    B1, N1, _D1 = v.shape
    B2, N2, D2 = A.shape
    assert B1 == B2
    assert N1 == N2
    assert N1 == D2
    if mask is not None:
        M = np.asarray(mask)[0, :N2, :N2]
        A = np.where(M == 0, -np.inf, A)  # A.masked_fill(M == 0, float("-inf")), out of place
    weights = _softmax(A, axis=2)
    return weights @ v, weights


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    att = attention_scores(Q, K)  # self_attention_layer: att = attention_scores(k, q)
    return _self_attention(V, att, mask)


def _self_attention_layer(x, kqv_matrix, attention_mask):
    k, q, v = _kqv(x, kqv_matrix)
    att = attention_scores(q, k)  # the student's attention_scores(k, q)
    sa, _ = _self_attention(v, att, attention_mask)
    return sa


def _multi_head_attention_layer(x, kqv_matrices, mask):
    _B, _N, _D = x.shape
    sa_arr = [_self_attention_layer(x, kqv_matrix, mask) for kqv_matrix in kqv_matrices]
    sa = np.concatenate(sa_arr, axis=2)
    assert sa.shape == x.shape
    return sa


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    embed_dim, n_heads = X.shape[-1], num_heads
    assert embed_dim % n_heads == 0
    d = int(3 * (embed_dim / n_heads)) // 3  # create_kqv_matrix's Linear: three blocks of embed_dim // n_heads
    kqv_matrices = [np.concatenate([W[:, h * d:(h + 1) * d] for W in (W_K, W_Q, W_V)], axis=1)
                    for h in range(n_heads)]
    self_mask = _create_causal_mask(embed_dim, n_heads, MAX_CONTEXT_LEN)  # forward has no mask argument
    sa = _multi_head_attention_layer(X, kqv_matrices, self_mask)
    return sa @ W_O  # self.proj
