"""Port of lucidrains/rotary-embedding-torch, rotary_embedding_torch/rotary_embedding_torch.py:
rotate_half, apply_rotary_emb and RotaryEmbedding.forward (freqs_for='lang').

Conventions kept: freqs = 1 / theta ** (arange(0, dim, 2)[: dim // 2] / dim), each repeated twice
('... n -> ... (n r)', r = 2); rotate_half pairs neighbours ('... (d r) -> ... d r'): the
interleaved layout, the same as the contract's.
"""

import numpy as np


def rotate_half(x):
    x = x.reshape(*x.shape[:-1], -1, 2)
    x1, x2 = x[..., 0], x[..., 1]
    return np.stack((-x2, x1), axis=-1).reshape(*x.shape[:-2], -1)


def rope(x, positions, base=10000.0):
    dim = x.shape[-1]
    freqs = 1.0 / (base ** (np.arange(0, dim, 2)[: (dim // 2)].astype(float) / dim))
    freqs = np.einsum("..., f -> ... f", np.asarray(positions, dtype=float), freqs)
    freqs = np.repeat(freqs, 2, axis=-1)
    return (x * np.cos(freqs)) + (rotate_half(x) * np.sin(freqs))
