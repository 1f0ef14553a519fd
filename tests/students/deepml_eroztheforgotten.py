"""Port of ErozTheForgotten/deep-ml, problems/0053-implement-self-attention-mechanism/solution.py (commit 2a7e4f2),
problems/0107-implement-masked-self-attention/solution.py (commit 2a7e4f2) and
problems/0094-implement-multi-head-attention/solution.py (commit 9e43d12), a learner's solutions (in PyTorch) of
problems of Deep-ML (deep-ml.com), an online platform of graded machine-learning coding problems whose solutions the
site syncs to the learner's GitHub repository, one folder per problem (problems/<number>-<slug>/solution.py).

Ports qkv_project (compute_qkv, problem 53), scaled_dot_product_attention (self_attention of problem 53 "Implement
Self-Attention Mechanism" without a mask, masked_attention of problem 107 "Implement Masked Self-Attention" with one)
and multi_head_attention (problem 94 "Implement Multi-Head Attention": compute_qkv, then multi_head_attention(Q, K, V,
n_heads) over that file's self_attention).

Conventions kept: compute_qkv is `torch.matmul(X, W_q)` (likewise K and V; problem 94's `X @ W_q`). Problem 53's
self_attention(Q, K, V): `Q @ (K.transpose(-2,-1) / (Q.shape[-1] ** 0.5 ))`, `torch.softmax(attention_scores, dim=1)`
(axis 1: the keys' axis of 2-D scores only; of (B, N_q, N_k) scores it is the queries'), `attention_weights @ V`.
masked_attention(Q, K, V, mask) (the problem's masks are additive, 0 / -inf: `np.triu(np.ones((6, 6))*(-np.inf), k=1)`
in its tests): `mask_t = mask.bool` (the method itself, never called, then overwritten), `(Q @ K.transpose(-2, -1)) /
(Q.shape[-1] ** .5)`, `if mask is not None:` `mask_t = torch.tensor(mask, dtype=torch.bool)` and `score =
score.masked_fill(mask_t, -1e9)` (True = masked, a finite fill; out of place), `torch.softmax(score, dim=-1)`, `smx @
V`. Problem 94's self_attention: `d_k = Q.shape[-1]`, `(Q @ (K.transpose(-2, -1)))`, `/ (d_k ** .5)`,
`torch.softmax(scaled_dp, dim=-1)`, `attention_weights @ V`; its multi_head_attention(Q, K, V, n_heads): `seq_len,
d_model = Q.shape` (2-D only), `assert d_model % n_heads == 0`, `d_head = d_model // n_heads`, `Q.reshape(seq_len,
n_heads, d_head).transpose(0, 1)` (likewise K and V, with the queries' head width), one self_attention over the (H, N,
d) heads, `head_outputs.transpose(0, 1)`, `.reshape(seq_len, d_model)` (the queries' width); the problem has no output
projection.

Left out: torch tensors and dtypes (float64 throughout). Not ported: problem 23's softmax (a list of floats in, a list
out): the reference's softmax stays. Added for the contract only: scaled_dot_product_attention(Q, K, V, mask, scale)
runs the learner's self_attention (problem 53) when mask is None and masked_attention(Q, K, V, mask) otherwise, returns
(out, weights) (the learner returns the output; the weights are its softmax) and takes a `scale` parameter (never read);
multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask) is problem 94's compute_qkv(X, W_Q, W_K, W_V) and
multi_head_attention(Q, K, V, num_heads), whose output the contract's W_O then projects (the problem has none), and
`mask` is never read.
"""

import numpy as np


def _softmax(x, axis):  # torch.softmax: an all -inf slice is -inf - (-inf) = NaN
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def _masked_fill(x, mask, value):  # Tensor.masked_fill (out of place): the mask broadcasts to x's shape
    return np.where(np.broadcast_to(mask, x.shape), value, x)


def qkv_project(X, W_Q, W_K, W_V):  # problem 53's compute_qkv
    return np.matmul(X, W_Q), np.matmul(X, W_K), np.matmul(X, W_V)


def _self_attention_53(Q, K, V):  # returns the weights too
    attention_scores = Q @ (np.swapaxes(K, -2, -1)
                            / (Q.shape[-1] ** 0.5)
                            )

    attention_weights = _softmax(attention_scores, axis=1)

    output = attention_weights @ V

    return output, attention_weights


def _masked_attention(Q, K, V, mask):  # problem 107; returns the weights too
    mask_t = mask  # `mask_t = mask.bool`: the bound method, never called
    score = (Q @ np.swapaxes(K, -2, -1)) / (Q.shape[-1] ** .5)

    if mask is not None:
        mask_t = np.array(mask, dtype=bool)
        score = _masked_fill(score, mask_t, -1e9)

    smx = _softmax(score, axis=-1)

    output = smx @ V

    return output, smx


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    if mask is None:
        return _self_attention_53(Q, K, V)
    return _masked_attention(Q, K, V, mask)


def _self_attention_94(Q, K, V):
    d_k = Q.shape[-1]

    scaled_dp = (Q @ (np.swapaxes(K, -2, -1)))

    scaled_dp = scaled_dp / (d_k ** .5)

    attention_weights = _softmax(scaled_dp, axis=-1)

    attention_output = attention_weights @ V

    return attention_output


def _multi_head_attention(Q, K, V, n_heads):  # problem 94
    seq_len, d_model = Q.shape

    assert d_model % n_heads == 0

    d_head = d_model // n_heads

    Q = np.swapaxes(Q.reshape(seq_len, n_heads, d_head), 0, 1)
    K = np.swapaxes(K.reshape(seq_len, n_heads, d_head), 0, 1)
    V = np.swapaxes(V.reshape(seq_len, n_heads, d_head), 0, 1)

    head_outputs = _self_attention_94(Q, K, V)

    head_outputs = np.swapaxes(head_outputs, 0, 1)

    output = head_outputs.reshape(seq_len, d_model)

    return output


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V  # problem 94's compute_qkv
    return _multi_head_attention(Q, K, V, num_heads) @ W_O  # W_O: for the contract only
