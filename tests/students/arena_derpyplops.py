"""Port of derpyplops/arena-v1, w1d2/attention.ipynb (commit 41e1f72): masked_attention, multihead_attention and
MultiheadMaskedAttention, a student's solution of ARENA (the Alignment Research Engineer Accelerator, its first
cohort, autumn 2022), W1D2 "Build your own transformer".

Ports two contract functions. scaled_dot_product_attention is masked_attention(Q, K, V, mask): `d_k =
math.sqrt(Q.shape[-1])`, `einsum('b s1 c, b s2 c -> b s1 s2', Q, K) / d_k` (fancy_einsum: three named axes, so 3-D
input only), `if mask is not None: scaled_dot_prod = scaled_dot_prod.masked_fill(mask == 0, -1e9)` (True = may
attend; a finite fill, so a fully masked row is uniform over the keys; the out-of-place masked_fill broadcasts the
mask and the scores), `scaled_dot_prod.softmax(dim=-1) @ V`; there is no scale argument. multi_head_attention is
MultiheadMaskedAttention.forward(x, mask=None), whose mask is never read: `Q, K, V =
self.W_QKV(x).chunk(3, dim=-1)` (torch.chunk: pieces of ceil(width / 3) columns), then multihead_attention(Q, K, V,
n_heads), which asserts `Q.shape[-1] % n_heads == 0` (and K, V) and `K.shape[-1] == V.shape[-1]`, builds a mask it
never uses (`mask = t.triu(t.ones(Q.shape[1], K.shape[1]), diagonal=1).bool()`), splits with `rearrange(Q, 'b s
(nheads h) -> b nheads s h', nheads=n_heads)` (3-D input only), scores `einsum('b nheads s1 h, b nheads s2 h -> b
nheads s2 s1', K, Q) / math.sqrt(Q.shape[-1])` (one row per query), adds its own causal mask whatever it is given,
`mask_filter = t.triu(t.full_like(scaled_dot_prod, -t.inf), 1)`, softmax(dim=-1), `einsum('b nheads s1 s2, b nheads
s2 c -> b nheads s1 c', attention_probs, V)`, `rearrange(attention_vals, 'b nheads s c -> b s (nheads c)')` and
`self.W_O(att)`.

Left out: the Linear layers' biases (zero here). Added for the contract only: (out, weights) is returned by
scaled_dot_product_attention, the weights being its softmax; a `scale` parameter (never read) so that the
contract's calls reach the student's code; W_QKV's weight is [W_Q | W_K | W_V] and W_O's is W_O (the constructor's
nn.Linear(hidden_size, hidden_size * 3) and nn.Linear(hidden_size, hidden_size) shapes are not checked against
them). Where torch, einops or an assert would raise, numpy raises too.
"""

import math

import numpy as np


def _softmax_last(x):  # Tensor.softmax(dim=-1)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    d_k = math.sqrt(Q.shape[-1])
    scaled_dot_prod = np.einsum("bic,bjc->bij", Q, K) / d_k
    if mask is not None:  # masked_fill(mask == 0, -1e9), out of place: mask and scores broadcast
        scaled_dot_prod = np.where(np.asarray(mask) == 0, -1e9, scaled_dot_prod)
    weights = _softmax_last(scaled_dot_prod)
    return weights @ V, weights


def _chunk3(M):  # M.chunk(3, dim=-1): pieces of ceil(n / 3) columns, possibly fewer than three
    n = M.shape[-1]
    size = -(-n // 3)
    pieces = [M[..., i:i + size] for i in range(0, n, size)]
    Q, K, V = pieces  # unpacking raises unless there are three
    return Q, K, V


def _split_heads(M, n_heads):  # rearrange(M, 'b s (nheads h) -> b nheads s h', nheads=n_heads)
    if M.ndim != 3 or M.shape[-1] % n_heads:
        raise ValueError(f"rearrange 'b s (nheads h) -> b nheads s h' cannot split shape {M.shape}")
    b, s, e = M.shape
    return M.reshape(b, s, n_heads, e // n_heads).transpose(0, 2, 1, 3)


def _multihead_attention(Q, K, V, n_heads):
    assert Q.shape[-1] % n_heads == 0
    assert K.shape[-1] % n_heads == 0
    assert V.shape[-1] % n_heads == 0
    assert K.shape[-1] == V.shape[-1]
    _unused_mask = np.triu(np.ones((Q.shape[1], K.shape[1])), k=1).astype(bool)
    Q = _split_heads(Q, n_heads)
    K = _split_heads(K, n_heads)
    V = _split_heads(V, n_heads)
    scaled_dot_prod = np.einsum("bnih,bnjh->bnji", K, Q) / math.sqrt(Q.shape[-1])
    mask_filter = np.triu(np.full_like(scaled_dot_prod, -np.inf), k=1)
    scaled_dot_prod = scaled_dot_prod + mask_filter
    attention_probs = _softmax_last(scaled_dot_prod)
    attention_vals = np.einsum("bnij,bnjc->bnic", attention_probs, V)
    b, n, s, c = attention_vals.shape
    return attention_vals.transpose(0, 2, 1, 3).reshape(b, s, n * c)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    Q, K, V = _chunk3(X @ np.concatenate([W_Q, W_K, W_V], axis=-1))  # self.W_QKV(x).chunk(3, dim=-1)
    att = _multihead_attention(Q, K, V, num_heads)
    return att @ W_O  # self.W_O(att)
