"""Port of Asembris/deep-ml, problems/0053-implement-self-attention-mechanism/solution.py (commit 96e01c5),
problems/0107-implement-masked-self-attention/solution.py (commit 373b4ec),
problems/0094-implement-multi-head-attention/solution.py (commit 373b4ec) and
problems/0376-kv-cache-for-efficient-autoregressive-attention/solution.py (commit f8b8e0a), a learner's solutions (in
numpy) of problems of Deep-ML (deep-ml.com), an online platform of graded machine-learning coding problems whose
solutions the site syncs to the learner's GitHub repository, one folder per problem
(problems/<number>-<slug>/solution.py).

Ports qkv_project (compute_qkv, problem 53), scaled_dot_product_attention (self_attention of problem 53 "Implement
Self-Attention Mechanism" without a mask, masked_attention of problem 107 "Implement Masked Self-Attention" with one),
multi_head_attention (problem 94 "Implement Multi-Head Attention": compute_qkv, then multi_head_attention(Q, K, V,
n_heads) over that file's self_attention) and decode_step (problem 376 "KV Cache for Efficient Autoregressive
Attention": kv_cache_attention_step(x_new, W_Q, W_K, W_V, cache) -> (output, updated_cache), the cache a tuple (K_cache,
V_cache) or None at the first step).

Conventions kept: compute_qkv is `np.dot(X, W_q)` (likewise K and V). Problem 53's self_attention(Q, K, V):
`scores=np.dot(Q,K.T)/np.sqrt(K.shape[1])` (`.T` reverses every axis; K.shape[1] is d_k only for 2-D keys),
`att_w=np.exp(scores)/np.sum(np.exp(scores),axis=1,keepdims=True)` (no max subtracted: exp overflows for large scores;
axis 1 is the keys' axis of 2-D scores), `np.dot(att_w,V)`. masked_attention(Q, K, V, mask) (the problem's masks are
additive, 0 / -inf: `np.triu(np.ones((6, 6))*(-np.inf), k=1)` in its tests): `d=K.shape[1]`,
`att_scores=np.dot(Q,K.T)/np.sqrt(d)`, `att_scores+=mask` (in place: a boolean mask adds 1 where True and 0 where
False), `att_scores-=np.max(att_scores,axis=1,keepdims=True)`, the softmax along axis 1, `np.dot(att_weights,V)`.
Problem 94's self_attention is problem 53's with the max subtracted (`att_scores-=np.max(att_scores, axis=1,
keepdims=True)`); its multi_head_attention(Q, K, V, n_heads): `d_model=K.shape[1]`, `seq_len=K.shape[0]`,
`d=d_model//n_heads`, `np.split(Q,n_heads,axis=1)` (likewise K and V: axis 1, the columns of 2-D input),
`res=np.zeros((K.shape[0], K.shape[1]))` (the keys' shape), `res[:,i*d:(i+1)*d]=At` per head (each value head written
into a slot of the keys' head width); the problem has no output projection. kv_cache_attention_step: `d_k =
W_K.shape[-1]`, `Q = x_new @ W_Q` (likewise K, V), `(k_cache, v_cache) = cache` unless None, `np.concatenate((k_cache,
K[None, :]), axis=0)` (`K[None, :]` at the first step; likewise v), `scores = (Q @ k_cache.T) / np.sqrt(d_k)`,
`exp_scores = np.exp(scores - np.max(scores))`, `attn_weights = exp_scores / np.sum(exp_scores)`, `output = attn_weights
@ v_cache`, `return output, (k_cache, v_cache)` (no RoPE: the problem has none).

Left out: nothing. Not ported: problem 23's softmax (a list of floats in, a list out): the reference's softmax stays.
Added for the contract only: scaled_dot_product_attention(Q, K, V, mask, scale) runs the learner's self_attention
(problem 53) when mask is None and masked_attention(Q, K, V, mask) otherwise, returns (out, weights) (the learner
returns the output; the weights are its softmax) and takes a `scale` parameter (never read); multi_head_attention(X,
W_Q, W_K, W_V, W_O, num_heads, mask) is problem 94's compute_qkv(X, W_Q, W_K, W_V) and multi_head_attention(Q, K, V,
num_heads), whose output the contract's W_O then projects (the problem has none), and `mask` is never read;
decode_step(layer, x, cache, rope_base) is kv_cache_attention_step on x_new = x with layer.query, layer.key and
layer.value for `x_new @ W_Q`, `x_new @ W_K` and `x_new @ W_V` (W_K.shape[-1] read as the key's width, which it is), the
contract's cache given as the tuple (cache.keys, cache.values) (None while it is empty) and the row the learner adds
appended to it; `rope_base` is never read.
"""

import numpy as np


def _compute_qkv(X, W_q, W_k, W_v):
    Q = np.dot(X, W_q)
    K = np.dot(X, W_k)
    V = np.dot(X, W_v)
    return Q, K, V


def qkv_project(X, W_Q, W_K, W_V):
    return _compute_qkv(X, W_Q, W_K, W_V)


def _self_attention_53(Q, K, V):  # returns the weights too
    scores = np.dot(Q, K.T) / np.sqrt(K.shape[1])
    att_w = np.exp(scores) / np.sum(np.exp(scores), axis=1, keepdims=True)
    res = np.dot(att_w, V)
    return res, att_w


def _masked_attention(Q, K, V, mask):  # problem 107; returns the weights too
    d = K.shape[1]
    att_scores = np.dot(Q, K.T) / np.sqrt(d)
    att_scores += mask
    att_scores -= np.max(att_scores, axis=1, keepdims=True)
    att_weights = np.exp(att_scores) / np.sum(np.exp(att_scores), axis=1, keepdims=True)
    res = np.dot(att_weights, V)
    return res, att_weights


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    if mask is None:
        return _self_attention_53(Q, K, V)
    return _masked_attention(Q, K, V, mask)


def _self_attention_94(Q, K, V):
    att_scores = np.dot(Q, K.T) / np.sqrt(K.shape[1])
    att_scores -= np.max(att_scores, axis=1, keepdims=True)
    att_weights = np.exp(att_scores) / (np.sum(np.exp(att_scores), axis=1, keepdims=True))
    res = np.dot(att_weights, V)
    return res


def _multi_head_attention(Q, K, V, n_heads):  # problem 94
    d_model = K.shape[1]
    _seq_len = K.shape[0]
    d = d_model // n_heads
    Qi = np.split(Q, n_heads, axis=1)
    Ki = np.split(K, n_heads, axis=1)
    Vi = np.split(V, n_heads, axis=1)
    res = np.zeros((K.shape[0], K.shape[1]))
    for i in range(n_heads):
        At = _self_attention_94(Qi[i], Ki[i], Vi[i])
        res[:, i * d:(i + 1) * d] = At
    return res


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    Q, K, V = _compute_qkv(X, W_Q, W_K, W_V)
    return _multi_head_attention(Q, K, V, num_heads) @ W_O  # W_O: for the contract only


def decode_step(layer, x, cache, rope_base=None):  # kv_cache_attention_step(x, W_Q, W_K, W_V, cache)
    x_new = x
    Q = layer.query(x_new)  # x_new @ W_Q
    K = layer.key(x_new)  # x_new @ W_K
    V = layer.value(x_new)  # x_new @ W_V
    d_k = K.shape[-1]  # W_K.shape[-1]

    student_cache = None if len(cache) == 0 else (cache.keys, cache.values)
    if student_cache is None:
        k_cache, v_cache = None, None
    else:
        k_cache, v_cache = student_cache

    k_cache = (
        K[None, :]
        if k_cache is None
        else np.concatenate((k_cache, K[None, :]), axis=0)
    )

    v_cache = (
        V[None, :]
        if v_cache is None
        else np.concatenate((v_cache, V[None, :]), axis=0)
    )

    scores = (Q @ k_cache.T) / np.sqrt(d_k)

    mx = np.max(scores)
    exp_scores = np.exp(scores - mx)
    attn_weights = exp_scores / np.sum(exp_scores)

    output = attn_weights @ v_cache

    cache.append(k_cache[-1], v_cache[-1])  # the contract's cache gets the row the learner added
    return output
