"""Port of jchanke/dlsys-hw4, python/needle/nn/nn_transformer.py, MultiHeadAttention (CMU 10-714 Deep Learning
Systems HW4, a student's solution; the shape asserts, softmax and create_causal_mask are the course's
scaffold the solution runs in).

Conventions kept: q, k, v are unpacked as (batch_size, num_head, seq_len, dim_head) (4-D only);
`assert q_dim == k_dim == v_dim` and `assert queries_len == keys_values_len`; scores are the student's
broadcast-and-sum matmul of q and k divided by q_dim ** 0.5; the module's `causal` flag (default False)
adds the scaffold's -finfo(float32).max * triu(ones, j - i + 1) mask; there is no mask argument; the
scaffold's softmax takes max and sum over axis 3; returns (result, probs). Added for the contract only:
the contract's mask and scale have no counterpart (the module is built with its default causal=False).
"""

import numpy as np

CAUSAL = False  # MultiHeadAttention's default


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    batch_size, num_head, queries_len, q_dim = Q.shape  # noqa: RUF059 - the student's unpacking (it states the shape assumed)  # noqa: RUF059 - the student's unpacking (it states the shape assumed)
    _, _, keys_values_len, k_dim = K.shape
    _, _, _, v_dim = V.shape
    assert q_dim == k_dim == v_dim
    assert queries_len == keys_values_len
    QK_T = (Q[..., :, None, :] * K[..., None, :, :]).sum(axis=-1) / q_dim ** 0.5
    if CAUSAL:
        i, j = queries_len, keys_values_len
        QK_T = QK_T + -np.finfo(np.float32).max * np.triu(np.ones((1, 1, i, j), dtype=np.float32), j - i + 1)
    max_val = QK_T.max(axis=3).reshape((*QK_T.shape[:-1], 1))
    probs = np.exp(QK_T - max_val)
    probs = probs / probs.sum(axis=3).reshape((*QK_T.shape[:-1], 1))
    result = (probs[..., :, :, None] * V[..., None, :, :]).sum(axis=-2)
    return result, probs
