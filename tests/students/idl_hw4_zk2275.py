"""Port of zk2275/IDL-HW4, mytorch/nn/scaled_dot_product_attention.py (CMU 11-785 HW4P1, a student's numpy solution).

Conventions kept: K^T with np.moveaxis(K, -2, -1); scores / sqrt(K.shape[-1]); the course's mask
convention True = IGNORE, applied in place by subtracting, `scaled_dot_product -= mask * eps` with
eps = 1e10 (a masked score becomes score - 1e10, finite: a fully masked row keeps weights); softmax on the
last axis (the student's Softmax(dim=-1); this port calls the module's softmax). Added for the contract
only: (out, weights) is returned; the `scale` argument does not exist in the student's function.
"""

import numpy as np

EPS = 1e10  # the course's "DO NOT MODIFY" constant


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    K_T = np.moveaxis(K, source=-2, destination=-1)
    dim = K.shape[-1]
    scores = Q @ K_T / np.sqrt(dim)
    if mask is not None:
        scores -= mask * EPS
    weights = softmax(scores, axis=-1)  # noqa: F821 - the submission's softmax (the reference's stands in for the student's library call)
    return weights @ V, weights
