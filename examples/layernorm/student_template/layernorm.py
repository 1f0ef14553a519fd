"""Layer normalization and a pre-norm block in numpy: your solution.

Features are the last axis everywhere: ``x`` has shape ``(..., D)``, where ``...`` is
any number of leading axes (tokens, batch; possibly none). Every function returns new
arrays and never modifies its inputs.

Parts:
  A  layer normalization           normalise each row over its D features
  B  a pre-norm feed-forward block  relu, a two-layer MLP, x + FFN(LN(x))
  C  running statistics            per-feature mean and variance over batches

This is your file. Replace each ``raise NotImplementedError(...)`` by your code; its
message is a hint. Use only numpy and the Python standard library, keep every name and
signature, never modify an input array.

Run the public tests from this folder with ``python -m pytest -q``: a failing test
says what was compared, where it differs and, when it recognises one, the likely
mistake. Then submit this file (or layernorm.ipynb if you work in the notebook).
"""

from __future__ import annotations

import numpy as np

# ----------------------------------------------------------------------------
# Part A: layer normalization
# ----------------------------------------------------------------------------


def layer_norm(x, gamma, beta, eps=1e-5):
    """Normalise every row of x over its last axis, then scale and shift it.

    Args:
        x:     (..., D) inputs.
        gamma: (D,) scale, one per feature.
        beta:  (D,) shift, one per feature.
        eps:   added to the variance, inside the square root.

    Returns:
        (..., D): gamma * (x - mean) / sqrt(var + eps) + beta, where mean and var are the
        mean and the (biased, 1/D) variance of each row over its D features.
    """
    raise NotImplementedError("mean and biased variance over axis=-1 (keepdims=True), then gamma * x_hat + beta")


# ----------------------------------------------------------------------------
# Part B: a pre-norm feed-forward block
# ----------------------------------------------------------------------------


def relu(x):
    """The rectified linear unit, entry by entry: max(x, 0), of x's shape."""
    raise NotImplementedError("max(x, 0) entry by entry, without changing x")


def feed_forward(x, W1, b1, W2, b2):
    """A two-layer perceptron applied to every row of x.

    Args:
        x:  (..., D) inputs.
        W1: (D, H) and b1: (H,): the hidden layer.
        W2: (H, D_out) and b2: (D_out,): the output layer.

    Returns:
        (..., D_out): relu(x @ W1 + b1) @ W2 + b2 (no activation after the output layer).
    """
    raise NotImplementedError("relu(x @ W1 + b1) @ W2 + b2, with your relu")


def pre_norm_block(x, gamma, beta, W1, b1, W2, b2):
    """A pre-norm residual block: x + feed_forward(layer_norm(x, gamma, beta), W1, b1, W2, b2).

    Args:
        x: (..., D) inputs; gamma, beta: (D,); W1 (D, H), b1 (H,), W2 (H, D), b2 (D,).

    Returns:
        (..., D): the input plus the feed-forward network of its normalised rows (the default eps).
    """
    raise NotImplementedError("normalise first, feed forward, then add the input itself (the residual)")


# ----------------------------------------------------------------------------
# Part C: running statistics
# ----------------------------------------------------------------------------


class RunningStats:
    """The per-feature mean and variance of every row seen so far, updated one batch at a time.

    ``stats = RunningStats(D)`` starts with ``count == 0`` and ``mean`` and ``var`` zeros of
    shape (D,). ``stats.update(x)`` adds the rows of x, shape (..., D) (the leading axes are
    rows, as many as they hold; a batch may have any number of rows). After it, ``count``
    is the number of rows seen, ``mean`` their mean and ``var`` their biased (1/count)
    variance, feature by feature: exactly as if every row had come in one batch.
    ``stats.normalize(x)`` returns (x - mean) / sqrt(var + eps) without changing the stats.
    """

    def __init__(self, num_features, eps=1e-5):
        # given: no row seen yet
        self.eps = eps
        self.count = 0
        self.mean = np.zeros(num_features)
        self.var = np.zeros(num_features)

    def update(self, x):
        raise NotImplementedError("merge the batch's count, mean and variance with the totals so far (Chan et al.)")

    def normalize(self, x):
        raise NotImplementedError("(x - mean) / sqrt(var + eps) with the statistics so far")
