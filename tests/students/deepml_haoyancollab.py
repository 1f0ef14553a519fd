"""Port of Haoyan-collab/deep-ml, problems/0053-implement-self-attention-mechanism/solution.py (commit 62983cc),
problems/0107-implement-masked-self-attention/solution.py (commit e6fc888),
problems/0094-implement-multi-head-attention/solution.py (commit d721a64),
problems/0381-rotary-positional-embeddings-rope/solution.py (commit 1d52f06) and
problems/0376-kv-cache-for-efficient-autoregressive-attention/solution.py (commit 1fa60b4), a learner's solutions (in
numpy, and PyTorch for problem 94) of problems of Deep-ML (deep-ml.com), an online platform of graded machine-learning
coding problems whose solutions the site syncs to the learner's GitHub repository, one folder per problem
(problems/<number>-<slug>/solution.py).

Ports qkv_project (compute_qkv, problem 53), scaled_dot_product_attention (self_attention of problem 53 "Implement
Self-Attention Mechanism" without a mask, masked_attention of problem 107 "Implement Masked Self-Attention" with one),
multi_head_attention (problem 94 "Implement Multi-Head Attention": compute_qkv, then multi_head_attention(Q, K, V,
n_heads) over that file's self_attention), rope (problem 381 "Rotary Positional Embeddings (RoPE)": apply_rope(x,
positions, base=10000.0)) and decode_step (problem 376 "KV Cache for Efficient Autoregressive Attention":
kv_cache_attention_step(x_new, W_Q, W_K, W_V, cache) -> (output, updated_cache), the cache a tuple (K_cache, V_cache) or
None at the first step).

Conventions kept: compute_qkv is `np.dot(X, W_q)` (likewise K and V; problem 94's `X @ W_q`). Problem 53's
self_attention(Q, K, V): `S = Q @ np.swapaxes(K, -1, -2)`, `S / np.sqrt(K.shape[-1])`, `S -= np.max(S, axis=-1, keepdims
= True)`, the softmax along axis -1, `sft_S @ V`. masked_attention(Q, K, V, mask) (the problem's masks are additive, 0 /
-inf: `np.triu(np.ones((6, 6))*(-np.inf), k=1)` in its tests): `S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(K.shape[-1])`,
`S += mask` (in place: a boolean mask adds 1 where True and 0 where False), the max subtracted (the guard `max_s =
np.where(max_s == -np.inf, 0, max_s)` commented out), the softmax along axis -1, `sft_S @ V`. Problem 94's
self_attention (torch): `d_k = Q.shape[-1]`, `Q @ K.transpose(-1,-2) / np.sqrt(d_k)`, `score -= torch.max(score,
dim=-1,keepdim = True).values`, the softmax along dim -1, `sft_score @ V`; its multi_head_attention(Q, K, V, n_heads):
`seq_len = Q.shape[-2]`, `d_model = Q.shape[-1]`, `assert d_model % n_heads == 0, "not divisible"`, `d_k = d_model //
n_heads`, `Q.reshape(seq_len,n_heads,d_k).transpose(0,1)` (likewise K and V, with the queries' head width; leading axes
must hold one entry), one self_attention over the (H, N, d) heads, `out.transpose(0,1).reshape(seq_len,d_model)` (2-D,
the queries' width); the problem has no output projection. apply_rope(x, positions, base): `d_model = x.shape[-1]`,
`theta = 1 / base ** (2 * np.arange(0, d_model//2, 1) / d_model)`, `angels = positions[:,None] * theta[None,:]`, `x_even
= x[:,0::2]`, `x_odd = x[:,1::2]` (axis 1: the pairs of 2-D input only), `out = np.zeros(x.shape)`, `out[:,0::2] =
x_even * cos - x_odd * sin`, `out[:,1::2] = x_even * sin + x_odd * cos`. kv_cache_attention_step: `q = x_new @ W_Q`
(likewise k, v), `(k_cache, v_cache) = cache if cache is not None else (None, None)`, `np.vstack([k_cache,k])`
(`k[None,:]` at the first step; likewise v), `S = q @ k_cache.swapaxes(-1,-2) / np.sqrt(k_cache.shape[-1])`, the max
subtracted, the softmax along axis -1, `return (sft_S @ v_cache, (k_cache,v_cache))` (no RoPE: the problem has none).

Left out: torch tensors in problem 94 (float64 throughout). Not ported: problem 23's softmax (a list of floats in, a
list out) and the later problems 490, 957 and 1029 (scaled dot-product attention, batched causal self-attention and RoPE
with a position offset, of other signatures): the reference's softmax stays. Added for the contract only:
scaled_dot_product_attention(Q, K, V, mask, scale) runs the learner's self_attention (problem 53) when mask is None and
masked_attention(Q, K, V, mask) otherwise, returns (out, weights) (the learner returns the output; the weights are its
softmax) and takes a `scale` parameter (never read); multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask) is
problem 94's compute_qkv(X, W_Q, W_K, W_V) and multi_head_attention(Q, K, V, num_heads), whose output the contract's W_O
then projects (the problem has none), and `mask` is never read; rope(x, positions, base) is apply_rope(x, positions,
base); decode_step(layer, x, cache, rope_base) is kv_cache_attention_step on x_new = x with layer.query, layer.key and
layer.value for `x_new @ W_Q`, `x_new @ W_K` and `x_new @ W_V`, the contract's cache given as the tuple (cache.keys,
cache.values) (None while it is empty) and the row the learner adds appended to it; `rope_base` is never read.
"""

import numpy as np


def qkv_project(X, W_Q, W_K, W_V):  # problem 53's compute_qkv
    Q = np.dot(X, W_Q)
    K = np.dot(X, W_K)
    V = np.dot(X, W_V)
    return Q, K, V


def _self_attention_53(Q, K, V):  # returns the weights too
    S = Q @ np.swapaxes(K, -1, -2)
    S = S / np.sqrt(K.shape[-1])
    S -= np.max(S, axis=-1, keepdims=True)
    sft_S = np.exp(S) / np.sum(np.exp(S), axis=-1, keepdims=True)
    return sft_S @ V, sft_S


def _masked_attention(Q, K, V, mask):  # problem 107; returns the weights too
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(K.shape[-1])
    S += mask

    max_s = np.max(S, axis=-1, keepdims=True)
    # max_s = np.where(max_s == -np.inf, 0, max_s)
    S -= max_s
    sft_S = np.exp(S) / np.sum(np.exp(S), axis=-1, keepdims=True)
    return sft_S @ V, sft_S


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    if mask is None:
        return _self_attention_53(Q, K, V)
    return _masked_attention(Q, K, V, mask)


def _self_attention_94(Q, K, V):
    d_k = Q.shape[-1]
    score = Q @ np.swapaxes(K, -1, -2) / np.sqrt(d_k)
    score -= np.max(score, axis=-1, keepdims=True)  # torch.max(score, dim=-1, keepdim=True).values
    sft_score = np.exp(score) / np.sum(np.exp(score), axis=-1, keepdims=True)
    return sft_score @ V


def _multi_head_attention(Q, K, V, n_heads):  # problem 94
    seq_len = Q.shape[-2]
    d_model = Q.shape[-1]
    assert d_model % n_heads == 0, "not divisible"
    d_k = d_model // n_heads
    Q = np.swapaxes(Q.reshape(seq_len, n_heads, d_k), 0, 1)
    K = np.swapaxes(K.reshape(seq_len, n_heads, d_k), 0, 1)
    V = np.swapaxes(V.reshape(seq_len, n_heads, d_k), 0, 1)

    out = _self_attention_94(Q, K, V)
    out = np.swapaxes(out, 0, 1).reshape(seq_len, d_model)

    return out


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V  # problem 94's compute_qkv
    return _multi_head_attention(Q, K, V, num_heads) @ W_O  # W_O: for the contract only


def _apply_rope(x, positions, base=10000.0):  # problem 381
    d_model = x.shape[-1]
    theta = 1 / base ** (2 * np.arange(0, d_model // 2, 1) / d_model)
    angels = positions[:, None] * theta[None, :]

    x_even = x[:, 0::2]
    x_odd = x[:, 1::2]

    cos = np.cos(angels)
    sin = np.sin(angels)

    out = np.zeros(x.shape)
    out[:, 0::2] = x_even * cos - x_odd * sin
    out[:, 1::2] = x_even * sin + x_odd * cos

    return out


def rope(x, positions, base=10000.0):
    return _apply_rope(np.asarray(x), np.asarray(positions), base)


def decode_step(layer, x, cache, rope_base=None):  # kv_cache_attention_step(x, W_Q, W_K, W_V, cache)
    x_new = x
    q = layer.query(x_new)  # x_new @ W_Q
    k = layer.key(x_new)  # x_new @ W_K
    v = layer.value(x_new)  # x_new @ W_V
    student_cache = None if len(cache) == 0 else (cache.keys, cache.values)
    (k_cache, v_cache) = student_cache if student_cache is not None else (None, None)
    if k_cache is not None:
        k_cache = np.vstack([k_cache, k])
        v_cache = np.vstack([v_cache, v])
    else:
        k_cache = k[None, :]
        v_cache = v[None, :]
    S = q @ k_cache.swapaxes(-1, -2) / np.sqrt(k_cache.shape[-1])
    S = S - np.max(S, axis=-1, keepdims=True)
    sft_S = np.exp(S) / np.sum(np.exp(S), axis=-1, keepdims=True)

    cache.append(k_cache[-1], v_cache[-1])  # the contract's cache gets the row the learner added
    return sft_S @ v_cache
