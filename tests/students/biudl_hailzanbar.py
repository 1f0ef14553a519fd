"""Port of HailZanbar/mini-language-model, code-and-data/attention.py (commit 680b0ad): create_kqv_matrix, kqv,
attention_scores, create_causal_mask, self_attention, self_attention_layer, multi_head_attention_layer and
CausalSelfAttention, a student's solution (2024, first pushed as HailZanbar/DL_methods_ex3) of Bar-Ilan University's
Deep Learning for Texts and Sequences, the assignment "Small Transformer Language Models" (a character-level
decoder-only transformer LM built on the course's skeleton, code-and-data.tgz: the students fill in attention.py; the
skeleton gives self_attention_layer, CausalSelfAttention and its output projection `self.proj`).

Ports qkv_project (kqv over one fused kqv matrix), attention_scores, causal_mask (create_causal_mask),
scaled_dot_product_attention (self_attention over attention_scores, chained as the student's self_attention_layer chains
them) and multi_head_attention (CausalSelfAttention.forward over multi_head_attention_layer).

Conventions kept: create_kqv_matrix(input_vector_dim, n_heads=1) is `nn.Linear(input_vector_dim, 3 * new_dim)` with
`new_dim = int(input_vector_dim / n_heads)`, one fused Linear per head whose output kqv names `k, q, v` in that order;
kqv(x, linear) reads `B, N, D = x.size()` (3-D only), runs `kqv_x = linear(x)` and cuts `k, q, v = kqv_x.chunk(3,
dim=2)` (torch.chunk: pieces of ceil(width / 3) columns; of blocks d_k, d_k and d_v wide these are the blocks only when
d_k - 2 <= d_v <= d_k, and a width that gives fewer than three pieces raises at the unpacking). attention_scores(a, b)
asserts `B1, N1, D1 = a.size()`, `B2, N2, D2 = b.size()` (3-D only), `B1 == B2` and `D1 == D2`, and returns
`torch.bmm(a, b.transpose(1, 2))` divided by `torch.sqrt(torch.tensor(D1, dtype=torch.float32, device=device))` (scaled;
the student's commit 50f22b9, "Change multiplication order of Q,K", made self_attention_layer call it as
`attention_scores(q, k)` where the skeleton has `attention_scores(k, q)`: one row per query).
create_causal_mask(embed_dim, n_heads, max_context_len) returns `torch.tril(torch.ones((1, n, n), dtype=torch.float32,
device=device))` with `n = max_context_len` (float, a leading axis of 1, square). self_attention(v, A, mask=None) reads
`B, N, D = A.size()` (3-D only), then, whether or not a mask is given (`mask=None` raises TypeError: the course always
passes its buffer), `mask = mask[:, :N, :N]` (the course's (1, L, L) buffer cut to N_q x N_q: a 2-D mask raises
IndexError), `M = mask.repeat(B, 1, 1)` (a (B, N, N) mask becomes (B*B, N, N), which the scores broadcast against only
when B = 1), `A = A.masked_fill(M == 0, float("-inf"))` (0/False = masked; out of place, so mask and scores broadcast),
`norm_A = F.softmax(A, dim=-1)` (an all -inf row is NaN) and returns `torch.bmm(norm_A, v)` (3-D, equal batch sizes).
multi_head_attention_layer(x, kqv_matrices, mask) reads `B, N, D = x.size()` (3-D only), runs self_attention_layer (`k,
q, v = kqv(x, kqv_matrix)`, `att = attention_scores(q, k)`, `self_attention(v, att, attention_mask)`) for
`kqv_matrices[0]` and then each further head, `torch.cat((sa, new_sa), dim=2)`, and the skeleton's `assert sa.size() ==
x.size()`. CausalSelfAttention(embed_dim, n_heads, max_context_len) asserts `embed_dim % n_heads == 0`, makes n_heads
kqv matrices `create_kqv_matrix(embed_dim, n_heads)` (heads of embed_dim // n_heads columns for the keys, queries AND
values), registers `create_causal_mask(embed_dim, n_heads, max_context_len)` as `self.mask`, and its forward(x) (no mask
argument: always causal) returns `self.proj(multi_head_attention_layer(x, self.kqv_matrices, self.mask))` with
`self.proj = nn.Linear(embed_dim, embed_dim)`.

Left out: the `.to(device)` calls, the Linear layers' biases (zero here: the contract has none), INTERPRET_MODE's
heat-map plots of the attention weights, the module-level `kqv_test()` (it prints three shapes), float32 arithmetic (the
scale's square root is still taken in float32). Added for the contract only: qkv_project(X, W_Q, W_K, W_V) runs kqv over
the fused matrix [W_K | W_Q | W_V] (the student's k, q, v order) and returns (q, k, v); attention_scores(Q, K) is the
student's attention_scores(a, b) with a = Q and b = K, the roles the student's call `attention_scores(q, k)` gives them;
scaled_dot_product_attention(Q, K, V, mask, scale) chains them as self_attention_layer does (the student's
`self_attention(V, attention_scores(Q, K), mask)`), returns (out, weights) (the student returns the output; the weights
are its norm_A) and takes a `scale` parameter (never read); causal_mask(n_q, n_k) is create_causal_mask with
max_context_len = n_q (n_k has no counterpart); in multi_head_attention embed_dim is X.shape[-1] and n_heads is
num_heads, head h's kqv matrix is columns [h*d, (h+1)*d) of W_K, W_Q and W_V side by side with d = embed_dim // n_heads
(the student's width), self.proj is W_O, max_context_len is 128 (main.py: `seq_len = 128`, passed to TransformerLM as
max_context_len; more tokens raise), and the contract's `mask` is never read.
"""

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


def _torch_repeat(t, sizes):  # Tensor.repeat: no fewer sizes than axes
    if len(sizes) < t.ndim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
    return np.tile(t, sizes)


def _softmax(A, axis):  # F.softmax: an all -inf slice is -inf - (-inf) = NaN
    E = np.exp(A - np.max(A, axis=axis, keepdims=True))
    return E / np.sum(E, axis=axis, keepdims=True)


def _kqv(x, linear):
    _B, _N, _D = x.shape
    kqv_x = x @ linear  # linear(x)
    k, q, v = _torch_chunk(kqv_x, 3, axis=2)
    return k, q, v


def qkv_project(X, W_Q, W_K, W_V):
    k, q, v = _kqv(X, np.concatenate([W_K, W_Q, W_V], axis=1))
    return q, k, v


def attention_scores(Q, K):
    a, b = Q, K  # the student's attention_scores(a, b), called as attention_scores(q, k)
    B1, _N1, D1 = a.shape
    B2, _N2, D2 = b.shape
    assert B1 == B2
    assert D1 == D2
    A = _bmm(a, np.swapaxes(b, 1, 2))
    A = A / np.sqrt(np.float32(D1))  # torch.sqrt(torch.tensor(D1, dtype=torch.float32))
    return A


def _create_causal_mask(embed_dim, n_heads, max_context_len):
    n = max_context_len
    return np.tril(np.ones((1, n, n), dtype=np.float32))


def causal_mask(n_q, n_k=None):
    return _create_causal_mask(None, None, n_q)


def _self_attention(v, A, mask=None):  # returns norm_A too, for the contract
    B, N, _D = A.shape
    mask = mask[:, :N, :N]  # no check for None
    M = _torch_repeat(mask, (B, 1, 1))
    A = np.where(M == 0, -np.inf, A)  # A.masked_fill(M == 0, float("-inf")), out of place
    norm_A = _softmax(A, axis=-1)
    sa = _bmm(norm_A, v)
    return sa, norm_A


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    att = attention_scores(Q, K)  # self_attention_layer: att = attention_scores(q, k)
    return _self_attention(V, att, None if mask is None else np.asarray(mask))


def _self_attention_layer(x, kqv_matrix, attention_mask):
    k, q, v = _kqv(x, kqv_matrix)
    att = attention_scores(q, k)
    sa, _ = _self_attention(v, att, attention_mask)
    return sa


def _multi_head_attention_layer(x, kqv_matrices, mask):
    _B, _N, _D = x.shape
    sa = _self_attention_layer(x, kqv_matrices[0], mask)
    if len(kqv_matrices) > 1:
        for kqv_matrix in kqv_matrices[1:]:
            new_sa = _self_attention_layer(x, kqv_matrix, mask)
            sa = np.concatenate((sa, new_sa), axis=2)
    assert sa.shape == x.shape
    return sa


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    embed_dim, n_heads = X.shape[-1], num_heads
    assert embed_dim % n_heads == 0
    new_dim = int(embed_dim / n_heads)  # create_kqv_matrix's Linear: three blocks of new_dim
    kqv_matrices = [np.concatenate([W[:, h * new_dim:(h + 1) * new_dim] for W in (W_K, W_Q, W_V)], axis=1)
                    for h in range(n_heads)]
    self_mask = _create_causal_mask(embed_dim, n_heads, MAX_CONTEXT_LEN)  # forward has no mask argument
    sa = _multi_head_attention_layer(X, kqv_matrices, self_mask)
    return sa @ W_O  # self.proj
