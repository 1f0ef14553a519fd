"""Port of Abhi-saxena1/deep-ml, problems/0053-implement-self-attention-mechanism/solution.py (commit acd833d),
problems/0107-implement-masked-self-attention/solution.py (commit fea9ed9),
problems/0094-implement-multi-head-attention/solution.py (commit 3141f54) and
problems/0381-rotary-positional-embeddings-rope/solution.py (commit 20682cf), a learner's solutions (in PyTorch) of
problems of Deep-ML (deep-ml.com), an online platform of graded machine-learning coding problems whose solutions the
site syncs to the learner's GitHub repository, one folder per problem (problems/<number>-<slug>/solution.py).

Ports qkv_project (compute_qkv, problem 53), scaled_dot_product_attention (self_attention of problem 53 "Implement
Self-Attention Mechanism" without a mask, masked_attention of problem 107 "Implement Masked Self-Attention" with one),
multi_head_attention (problem 94 "Implement Multi-Head Attention": compute_qkv, then multi_head_attention(Q, K, V,
n_heads) over that file's self_attention) and rope (problem 381 "Rotary Positional Embeddings (RoPE)": apply_rope(x,
positions, base=10000.0)).

Conventions kept: compute_qkv is `torch.matmul(X, W_q)` (likewise K and V). self_attention(Q, K, V) (problems 53 and 94
alike): `dk = K.shape[-1]`, `(Q @ K.T) / torch.sqrt(torch.tensor(dk, dtype=Q.dtype))` (`.T` reverses every axis of a
tensor that is not 2-D, as numpy's does), `torch.softmax(scores, dim=-1)`, `weights @ V`. masked_attention(Q, K, V,
mask) (the problem's masks are additive, 0 / -inf: `np.triu(np.ones((6, 6))*(-np.inf), k=1)` in its tests): `(Q @
K.T)/(dk ** 0.5)`, `sm = scores + mask` (a boolean mask adds 1 where True and 0 where False), `torch.softmax(sm, dim =
-1)`, `a @ V`. multi_head_attention(Q, K, V, n_heads): `d_model = Q.shape[-1]`, `dk = (d_model // n_heads)`,
`Q.reshape(Q.shape[0], n_heads, dk).permute(1, 0, 2)` (likewise K and V, with the queries' head width), self_attention
per head, `torch.cat(outputs, dim = -1)`; the problem has no output projection. apply_rope(x, positions, base):
`seq_len, d = x.shape` (2-D only), `x_even = x[:, 0::2]`, `x_odd = x[:, 1::2]`, `theta = 1 / (base ** (2 * i / d))` with
`i = torch.arange(d // 2, dtype=x.dtype)`, `angle = positions.to(x.dtype).unsqueeze(1) * theta.unsqueeze(0)`, the pairs
rotated counter-clockwise into `result[:, 0::2]` and `result[:, 1::2]`.

Left out: torch tensors and dtypes (float64 throughout). Not ported: problem 23's softmax (a list of floats in, a list
rounded to 4 places out): the reference's softmax stays. Added for the contract only: scaled_dot_product_attention(Q, K,
V, mask, scale) runs the learner's self_attention when mask is None and masked_attention(Q, K, V, mask) otherwise,
returns (out, weights) (the learner returns the output; the weights are its softmax) and takes a `scale` parameter
(never read); multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask) is problem 94's compute_qkv(X, W_Q, W_K, W_V)
and multi_head_attention(Q, K, V, num_heads), whose output the contract's W_O then projects (the problem has none), and
`mask` is never read; rope(x, positions, base) is apply_rope(x, positions, base).
"""

import numpy as np


def _softmax(x, axis):  # torch.softmax: an all -inf slice is -inf - (-inf) = NaN
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def _compute_qkv(X, W_q, W_k, W_v):
    Q = np.matmul(X, W_q)
    K = np.matmul(X, W_k)
    V = np.matmul(X, W_v)
    return Q, K, V


def qkv_project(X, W_Q, W_K, W_V):
    return _compute_qkv(X, W_Q, W_K, W_V)


def _self_attention(Q, K, V):  # problem 53 (problem 94's is the same code); returns the weights too
    dk = K.shape[-1]
    scores = (Q @ K.T) / np.sqrt(np.asarray(dk, dtype=Q.dtype))
    weights = _softmax(scores, axis=-1)
    output = weights @ V
    return output, weights


def _masked_attention(Q, K, V, mask):  # problem 107; returns the weights too
    dk = K.shape[-1]
    scores = (Q @ K.T) / (dk ** 0.5)
    sm = scores + mask
    a = _softmax(sm, axis=-1)
    output = a @ V
    return output, a


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    if mask is None:
        return _self_attention(Q, K, V)
    return _masked_attention(Q, K, V, mask)


def _multi_head_attention(Q, K, V, n_heads):  # problem 94
    d_model = Q.shape[-1]
    dk = (d_model // n_heads)
    Q_heads = np.transpose(Q.reshape(Q.shape[0], n_heads, dk), (1, 0, 2))
    K_heads = np.transpose(K.reshape(K.shape[0], n_heads, dk), (1, 0, 2))
    V_heads = np.transpose(V.reshape(V.shape[0], n_heads, dk), (1, 0, 2))

    outputs = []
    for h in range(n_heads):
        output, _ = _self_attention(Q_heads[h], K_heads[h], V_heads[h])
        outputs.append(output)

    return np.concatenate(outputs, axis=-1)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    Q, K, V = _compute_qkv(X, W_Q, W_K, W_V)
    return _multi_head_attention(Q, K, V, num_heads) @ W_O  # W_O: for the contract only


def _apply_rope(x, positions, base=10000.0):  # problem 381
    _seq_len, d = x.shape

    x_even = x[:, 0::2]
    x_odd = x[:, 1::2]

    i = np.arange(d // 2, dtype=x.dtype)

    theta = 1 / (base ** (2 * i / d))

    angle = np.asarray(positions).astype(x.dtype)[:, None] * theta[None, :]

    cos = np.cos(angle)
    sin = np.sin(angle)

    rotated_even = x_even * cos - x_odd * sin
    rotated_odd = x_even * sin + x_odd * cos

    result = np.empty_like(x)

    result[:, 0::2] = rotated_even
    result[:, 1::2] = rotated_odd

    return result


def rope(x, positions, base=10000.0):
    return _apply_rope(np.asarray(x), positions, base)
