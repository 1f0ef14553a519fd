"""Port of rleaf/EECS-498-007-Deep-Learning, A5/transformers.py: scaled_dot_product_no_loop_batch (UMich EECS 498-007
A5, a student's solution).

Conventions kept: `_, _, M = query.shape` and torch.bmm(query, key.transpose(-1, -2)) (3-D (N, K, M) input
only); the course's mask convention True = MASKED, applied to the UNSCALED scores with
masked_fill_(mask, -1e9) (finite), then the scores divided by M ** (1/2) and softmax on dim=-1; returns
(y, weights_softmax). Added for the contract only: the `scale` argument does not exist in the student's
function (ignored).
"""

import numpy as np


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    _, _, M = Q.shape
    if Q.ndim != 3 or K.ndim != 3:  # torch.bmm takes batches of matrices only
        raise RuntimeError("batch1 must be a 3D tensor")
    e = np.matmul(Q, np.swapaxes(K, -1, -2))
    if mask is not None:
        e = np.where(mask, -1e9, e)
    scaled = e / M ** (1 / 2)
    weights = np.exp(scaled - scaled.max(axis=-1, keepdims=True))
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return np.matmul(weights, V), weights
