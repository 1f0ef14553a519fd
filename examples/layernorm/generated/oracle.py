"""The grader's oracle: GENERATED from the homework's solution by `autograder template`.

The graded suite computes with it only what no stored case holds: the answers of a dependency it serves
to a probe (``Student.call_served``) and the expected output of a probe's rewritten input. It runs in
the grader only, never in the worker; like the stored outputs, it is unreadable to student code.
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
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return gamma * (x - mean) / np.sqrt(var + eps) + beta


# ----------------------------------------------------------------------------
# Part B: a pre-norm feed-forward block
# ----------------------------------------------------------------------------


def relu(x):
    """The rectified linear unit, entry by entry: max(x, 0), of x's shape."""
    return np.maximum(x, 0.0)


def feed_forward(x, W1, b1, W2, b2):
    """A two-layer perceptron applied to every row of x.

    Args:
        x:  (..., D) inputs.
        W1: (D, H) and b1: (H,): the hidden layer.
        W2: (H, D_out) and b2: (D_out,): the output layer.

    Returns:
        (..., D_out): relu(x @ W1 + b1) @ W2 + b2 (no activation after the output layer).
    """
    return relu(x @ W1 + b1) @ W2 + b2


def pre_norm_block(x, gamma, beta, W1, b1, W2, b2):
    """A pre-norm residual block: x + feed_forward(layer_norm(x, gamma, beta), W1, b1, W2, b2).

    Args:
        x: (..., D) inputs; gamma, beta: (D,); W1 (D, H), b1 (H,), W2 (H, D), b2 (D,).

    Returns:
        (..., D): the input plus the feed-forward network of its normalised rows (the default eps).
    """
    return x + feed_forward(layer_norm(x, gamma, beta), W1, b1, W2, b2)


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
        rows = np.reshape(x, (-1, np.shape(x)[-1]))
        n = rows.shape[0]
        if n == 0:
            return
        batch_mean = rows.mean(axis=0)
        batch_var = rows.var(axis=0)
        total = self.count + n
        delta = batch_mean - self.mean
        m2 = self.var * self.count + batch_var * n + delta**2 * self.count * n / total
        self.mean = self.mean + delta * n / total
        self.var = m2 / total
        self.count = total

    def normalize(self, x):
        return (x - self.mean) / np.sqrt(self.var + self.eps)
