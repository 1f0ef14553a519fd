"""Port of Reblexis/dlsyscourse-hw4, python/needle/nn/nn_transformer.py, MultiHeadAttention (CMU 10-714 Deep
Learning Systems HW4, a student's solution; the shape assert, softmax and create_causal_mask are the
course's scaffold the solution runs in).

Conventions kept: q, k, v are unpacked as (batch_size, num_head, seq_len, dim_head) (4-D only);
`assert q_dim == k_dim == v_dim`; scores are the student's broadcast matmul of q and k divided by
q_dim ** 0.5; the scaffold's causal mask, -finfo(float32).max * triu(ones((1, 1, i, j)), j - i + 1)
(bottom-right aligned, finite), is ALWAYS added (the module's `causal` flag is not consulted); there is
no mask argument; the scaffold's softmax takes max and sum over axis 3; returns (result, probs). Added
for the contract only: the contract's mask and scale have no counterpart.
"""

import numpy as np


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    batch_size, num_head, queries_len, q_dim = Q.shape  # noqa: RUF059 - the student's unpacking (it states the shape assumed)  # noqa: RUF059 - the student's unpacking (it states the shape assumed)
    _, _, keys_values_len, k_dim = K.shape
    _, _, _, v_dim = V.shape
    assert q_dim == k_dim == v_dim
    inner = (Q[..., :, :, None] * np.swapaxes(K, -1, -2)[..., None, :, :]).sum(axis=-2) / (q_dim ** 0.5)
    i, j = queries_len, keys_values_len
    causal = -np.finfo(np.float32).max * np.triu(np.ones((1, 1, i, j), dtype=np.float32), j - i + 1)
    logit = inner + np.broadcast_to(causal, inner.shape)
    max_val = logit.max(axis=3).reshape((*logit.shape[:-1], 1))
    probs = np.exp(logit - max_val)
    probs = probs / probs.sum(axis=3).reshape((*logit.shape[:-1], 1))
    result = (probs[..., :, :, None] * V[..., None, :, :]).sum(axis=-2)
    return result, probs
