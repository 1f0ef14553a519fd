"""Known-wrong variants of the layernorm homework's functions (dev-time only, never shipped).

``VARIANTS[function][mistake_id]`` has the function's signature (a class with RunningStats's interface for
"RunningStats") and makes exactly that one mistake; the ids are the keys of ``sentences.py``. ``regen`` stores
their outputs next to the expected ones, so the grader (and the students' public tests) can name the mistake a
submission makes. A variant that equals the solution on some inputs stores nothing there.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from . import layernorm as ref

# ---- Part A: layer_norm -------------------------------------------------------------------------------------


def _ln_wrong_axis(x, gamma, beta, eps=1e-5):
    mean = np.mean(x, axis=0, keepdims=True)
    var = np.mean((x - mean) ** 2, axis=0, keepdims=True)
    return gamma * (x - mean) / np.sqrt(var + eps) + beta


def _ln_eps_outside_sqrt(x, gamma, beta, eps=1e-5):
    mean = np.mean(x, axis=-1, keepdims=True)
    return gamma * (x - mean) / (np.std(x, axis=-1, keepdims=True) + eps) + beta


def _ln_unbiased_variance(x, gamma, beta, eps=1e-5):
    mean = np.mean(x, axis=-1, keepdims=True)
    return gamma * (x - mean) / np.sqrt(np.var(x, axis=-1, ddof=1, keepdims=True) + eps) + beta


def _ln_gamma_beta_swapped(x, gamma, beta, eps=1e-5):
    return ref.layer_norm(x, beta, gamma, eps)


# ---- Part B: relu, feed_forward, pre_norm_block ----------------------------------------------------------------


def _ff_no_activation(x, W1, b1, W2, b2):
    return (x @ W1 + b1) @ W2 + b2


def _ff_activation_on_output(x, W1, b1, W2, b2):
    return ref.relu(ref.relu(x @ W1 + b1) @ W2 + b2)


def _ff_bias_after_activation(x, W1, b1, W2, b2):
    return (ref.relu(x @ W1) + b1) @ W2 + b2


def _block_no_residual(x, gamma, beta, W1, b1, W2, b2):
    return ref.feed_forward(ref.layer_norm(x, gamma, beta), W1, b1, W2, b2)


def _block_post_norm(x, gamma, beta, W1, b1, W2, b2):
    return ref.layer_norm(x + ref.feed_forward(x, W1, b1, W2, b2), gamma, beta)


def _block_residual_normalized(x, gamma, beta, W1, b1, W2, b2):
    normalized = ref.layer_norm(x, gamma, beta)
    return normalized + ref.feed_forward(normalized, W1, b1, W2, b2)


# ---- Part C: RunningStats ----------------------------------------------------------------------------------------


class _LastBatchOnly(ref.RunningStats):
    """Each update replaces the statistics by the batch's own (the count still adds up)."""

    def update(self, x):
        rows = np.reshape(x, (-1, np.shape(x)[-1]))
        self.count += rows.shape[0]
        self.mean, self.var = rows.mean(axis=0), rows.var(axis=0)


class _MeanOfMeans(ref.RunningStats):
    """The mean and variance are plain averages of the batches' own, whatever their sizes."""

    def __init__(self, num_features, eps=1e-5):
        super().__init__(num_features, eps)
        self._batches = 0

    def update(self, x):
        rows = np.reshape(x, (-1, np.shape(x)[-1]))
        self.count += rows.shape[0]
        self._batches += 1
        self.mean = self.mean + (rows.mean(axis=0) - self.mean) / self._batches
        self.var = self.var + (rows.var(axis=0) - self.var) / self._batches


class _VarianceNotMerged(ref.RunningStats):
    """The variance is the count-weighted average of the batches' variances: the spread between batch means is
    lost."""

    def update(self, x):
        rows = np.reshape(x, (-1, np.shape(x)[-1]))
        n = rows.shape[0]
        total = self.count + n
        self.mean = (self.mean * self.count + rows.mean(axis=0) * n) / total
        self.var = (self.var * self.count + rows.var(axis=0) * n) / total
        self.count = total


class _UnbiasedVariance(ref.RunningStats):
    """var is the unbiased (1/(count - 1)) variance of every row seen."""

    def __init__(self, num_features, eps=1e-5):
        super().__init__(num_features, eps)
        self._rows = np.zeros((0, num_features))

    def update(self, x):
        self._rows = np.concatenate([self._rows, np.reshape(x, (-1, np.shape(x)[-1]))])
        self.count = len(self._rows)
        self.mean = self._rows.mean(axis=0)
        self.var = self._rows.var(axis=0, ddof=1) if self.count > 1 else np.zeros(self._rows.shape[1])


VARIANTS: dict[str, dict[str, Callable]] = {
    "layer_norm": {
        "ln_wrong_axis": _ln_wrong_axis,
        "ln_eps_outside_sqrt": _ln_eps_outside_sqrt,
        "ln_unbiased_variance": _ln_unbiased_variance,
        "ln_gamma_beta_swapped": _ln_gamma_beta_swapped,
    },
    "relu": {"relu_minimum": lambda x: np.minimum(x, 0.0)},
    "feed_forward": {
        "ff_no_activation": _ff_no_activation,
        "ff_activation_on_output": _ff_activation_on_output,
        "ff_bias_after_activation": _ff_bias_after_activation,
    },
    "pre_norm_block": {
        "block_no_residual": _block_no_residual,
        "block_post_norm": _block_post_norm,
        "block_residual_normalized": _block_residual_normalized,
    },
    "RunningStats": {
        "stats_last_batch_only": _LastBatchOnly,
        "stats_mean_of_means": _MeanOfMeans,
        "stats_variance_not_merged": _VarianceNotMerged,
        "stats_unbiased_variance": _UnbiasedVariance,
    },
}
