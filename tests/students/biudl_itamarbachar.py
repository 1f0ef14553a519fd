"""Port of itamarBachar/LLM, code/attention.py (commit 062a003): create_kqv_matrix, kqv, attention_scores,
create_causal_mask, self_attention, multi_head_attention_layer, create_output_projection and CausalSelfAttention, a
student team's solution (2026, assignment 1 of that year, whose text the repository keeps as code/ex1.md) of Bar-Ilan
University's Deep Learning for Texts and Sequences, the assignment "Small Transformer Language Models" (a
character-level decoder-only transformer LM built on the course's skeleton, code-and-data.tgz: the students fill in
attention.py; the skeleton gives self_attention_layer and CausalSelfAttention, and asks them to add the final
projection).

Ports qkv_project (kqv over one fused kqv matrix), attention_scores, causal_mask (create_causal_mask),
scaled_dot_product_attention (self_attention over attention_scores, chained as the skeleton's self_attention_layer
chains them) and multi_head_attention (CausalSelfAttention.forward over multi_head_attention_layer).

Conventions kept: create_kqv_matrix(input_vector_dim, n_heads=1) is `nn.Linear(input_vector_dim, output_dim)` with
`d_head = input_vector_dim // n_heads` and `output_dim = 3 * d_head`, one fused Linear per head whose output kqv names
`k, q, v` in that order; kqv(x, linear) reads `B, N, D = x.size()` (3-D only), runs `kqv_output = linear(x)` and cuts
`k, q, v = torch.split(kqv_output, kqv_output.size(-1) // 3, dim=-1)` (pieces of width // 3 columns, the last one
shorter: unless the three blocks are equally wide there are more than three pieces and the unpacking raises, or the
pieces straddle the blocks). attention_scores(a, b) asserts `B1, N1, D1 = a.size()`, `B2, N2, D2 = b.size()` (3-D only),
`B1 == B2` and `D1 == D2`, and returns `torch.matmul(a, b.transpose(-2, -1)) / math.sqrt(D1)` (scaled, one row per item
of a); the skeleton's self_attention_layer calls it as `att = attention_scores(k, q)`, so its rows are the KEYS and its
columns the queries. create_causal_mask(embed_dim, n_heads, max_context_len) returns `torch.tril(torch.ones((1,
max_context_len, max_context_len), dtype=torch.float32))` (float, a leading axis of 1, square). self_attention(v, A,
mask=None, ...) does, given a mask, `current_mask = mask[:, :A.size(-2), :A.size(-1)]` (the course's (1, L, L) buffer
cut to the scores' shape: a 2-D mask raises IndexError) and `A = A.masked_fill(current_mask == 0, float("-inf"))`
(0/False = masked; out of place, so mask and scores broadcast), then `alpha = F.softmax(A, dim=-1)` and `sa =
torch.matmul(alpha, v)`, reading A as if its rows were the queries: the softmax runs over the queries of each key (an
all -inf row is NaN), and the (N_k, N_q) weights multiply the (N_k, d_v) values, which raises unless N_q = N_k and
otherwise gives token i the mix of the values v_j weighted by k_i . q_j over the j the mask keeps (with the causal
buffer, j <= i); `return_alpha=True` returns `(sa, alpha)`. multi_head_attention_layer(x, kqv_matrices, mask, ...) reads
`B, N, D = x.size()` (3-D only), runs the skeleton's self_attention_layer for every head, `torch.cat(heads, dim=-1)` and
the skeleton's `assert sa.size() == x.size()`. CausalSelfAttention(embed_dim, n_heads, max_context_len, ...) asserts
`embed_dim % n_heads == 0`, makes n_heads kqv matrices `create_kqv_matrix(embed_dim, n_heads)` (heads of embed_dim //
n_heads columns for the keys, queries AND values) and `self.output_projection = create_output_projection(embed_dim)`
(`nn.Linear(input_vector_dim, input_vector_dim)`), registers `create_causal_mask(embed_dim, n_heads, max_context_len)`
as `self.mask`, and its forward(x) (no mask argument: always causal) computes `sa = multi_head_attention_layer(x,
self.kqv_matrices, self.mask, ...)`, `sa = self.output_projection(sa)` and `self.output_dropout(sa)`.

Left out: dropout (F.dropout with `training=self.training` and the output dropout: the identity at evaluation), the
Linear layers' biases (zero here: the contract has none), the per-head weights forward returns with `return_attn=True`,
float32 arithmetic. Added for the contract only: qkv_project(X, W_Q, W_K, W_V) runs kqv over the fused matrix [W_K | W_Q
| W_V] (the student's k, q, v order) and returns (q, k, v); attention_scores(Q, K) is the student's attention_scores(a,
b) with a = K and b = Q, the roles the skeleton's call `attention_scores(k, q)` gives them;
scaled_dot_product_attention(Q, K, V, mask, scale) chains them as self_attention_layer does (the student's
`self_attention(V, attention_scores(K, Q), mask, return_alpha=True)`), returns (sa, alpha) and takes a `scale` parameter
(never read); causal_mask(n_q, n_k) is create_causal_mask with max_context_len = n_q (n_k has no counterpart); in
multi_head_attention embed_dim is X.shape[-1] and n_heads is num_heads, head h's kqv matrix is columns [h*d, (h+1)*d) of
W_K, W_Q and W_V side by side with d = embed_dim // n_heads (the student's width), output_projection is W_O,
max_context_len is 128 (main.py: `--seq-len` defaults to 128, the model's max_context_len; more tokens raise), and the
contract's `mask` is never read.
"""

import math

import numpy as np

MAX_CONTEXT_LEN = 128  # main.py: parser.add_argument("--seq-len", type=int, default=128), the max_context_len


def _torch_split(x, size, axis):  # torch.split(x, size, dim): pieces of `size`, the last one shorter
    return np.split(x, list(range(size, x.shape[axis], size)), axis=axis)


def _softmax(A, axis):  # F.softmax: an all -inf slice is -inf - (-inf) = NaN
    E = np.exp(A - np.max(A, axis=axis, keepdims=True))
    return E / np.sum(E, axis=axis, keepdims=True)


def _kqv(x, linear):
    _B, _N, _D = x.shape
    kqv_output = x @ linear  # linear(x)
    k, q, v = _torch_split(kqv_output, kqv_output.shape[-1] // 3, axis=-1)
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
    A = np.matmul(a, np.swapaxes(b, -2, -1)) / math.sqrt(D1)
    return A


def _create_causal_mask(embed_dim, n_heads, max_context_len):
    return np.tril(np.ones((1, max_context_len, max_context_len), dtype=np.float32))


def causal_mask(n_q, n_k=None):
    return _create_causal_mask(None, None, n_q)


def _self_attention(v, A, mask=None):  # with return_alpha=True
    if mask is not None:
        current_mask = mask[:, :A.shape[-2], :A.shape[-1]]
        A = np.where(current_mask == 0, -np.inf, A)  # A.masked_fill(current_mask == 0, float("-inf")), out of place
    alpha = _softmax(A, axis=-1)
    sa = np.matmul(alpha, v)
    return sa, alpha


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    att = attention_scores(Q, K)  # self_attention_layer: att = attention_scores(k, q)
    return _self_attention(V, att, None if mask is None else np.asarray(mask))


def _self_attention_layer(x, kqv_matrix, attention_mask):
    k, q, v = _kqv(x, kqv_matrix)
    att = attention_scores(q, k)  # the student's attention_scores(k, q)
    sa, _ = _self_attention(v, att, attention_mask)
    return sa


def _multi_head_attention_layer(x, kqv_matrices, mask):
    _B, _N, _D = x.shape
    heads = [_self_attention_layer(x, kqv_matrix, mask) for kqv_matrix in kqv_matrices]
    sa = np.concatenate(heads, axis=-1)
    assert sa.shape == x.shape
    return sa


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    embed_dim, n_heads = X.shape[-1], num_heads
    assert embed_dim % n_heads == 0
    d_head = embed_dim // n_heads  # create_kqv_matrix's Linear: three blocks of d_head
    kqv_matrices = [np.concatenate([W[:, h * d_head:(h + 1) * d_head] for W in (W_K, W_Q, W_V)], axis=1)
                    for h in range(n_heads)]
    self_mask = _create_causal_mask(embed_dim, n_heads, MAX_CONTEXT_LEN)  # forward has no mask argument
    sa = _multi_head_attention_layer(X, kqv_matrices, self_mask)
    return sa @ W_O  # self.output_projection
