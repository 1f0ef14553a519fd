"""Port of WilPanSon/HW4P1, mytorch/nn/activation.py (Softmax), mytorch/nn/scaled_dot_product_attention.py and
mytorch/nn/multi_head_attention.py (CMU 11-785 HW4P1, a student's numpy solution).

Conventions kept: Softmax(dim) subtracts the max along dim (an all -inf slice gives NaN), no
temperature; attention follows the course's mask convention, True = IGNORE, and adds it in place,
`scaled_dot_product += mask * -eps` (eps = 1e10: masked scores stay finite); scale 1/sqrt(K.shape[-1]);
multi-head attention reads batch and length from (N, L, E) input, splits heads of width
embed_dim // num_heads (embed_dim = the input width) for q, k and v, expands the (L, S) attn_mask with
attn_mask[None, None, :, :], and merges the heads back with reshape(batch, length, embed_dim). Added for
the contract only: (out, weights) is returned; the weight matrices replace the Linear layers (no
biases); the contract's mask is passed as the student's attn_mask.
"""

import numpy as np

EPS = 1e10  # the course's "DO NOT MODIFY" constant


def softmax(Z, axis=-1, temperature=1.0):
    if axis > len(Z.shape) or axis < -len(Z.shape):
        raise ValueError("Dimension to apply softmax to is greater than the number of dimensions in Z")
    numerator = np.exp(Z - np.max(Z, axis=axis, keepdims=True))
    return numerator / np.sum(numerator, axis=axis, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    d_k = K.shape[-1]
    scores = (Q @ np.swapaxes(K, -2, -1)) / np.sqrt(d_k)
    if mask is not None:
        scores += mask * -EPS
    weights = softmax(scores, axis=-1)
    return weights @ V, weights


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    embed_dim = X.shape[-1]
    batch_size, length = X.shape[0], X.shape[1]
    head_dim = embed_dim // num_heads

    def split_heads(x):
        return x.reshape(batch_size, length, num_heads, head_dim).transpose(0, 2, 1, 3)

    q, k, v = split_heads(X @ W_Q), split_heads(X @ W_K), split_heads(X @ W_V)
    combined = None if mask is None else mask[None, None, :, :]
    out, _ = scaled_dot_product_attention(q, k, v, combined)
    return out.transpose(0, 2, 1, 3).reshape(batch_size, length, embed_dim) @ W_O
