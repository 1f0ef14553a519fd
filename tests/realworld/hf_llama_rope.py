"""Port of huggingface/transformers, src/transformers/models/llama/modeling_llama.py: rotate_half,
apply_rotary_pos_emb and LlamaRotaryEmbedding (default rope type).

Conventions kept: inv_freq = 1 / base ** (arange(0, dim, 2) / dim); emb = cat((freqs, freqs));
q_embed = q * cos + rotate_half(q) * sin with rotate_half = cat((-x2, x1)) of the two HALVES
(GPT-NeoX layout: coordinate i is paired with i + d/2, not with i + 1).
"""

import numpy as np


def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return np.concatenate((-x2, x1), axis=-1)


def rope(x, positions, base=10000.0):
    dim = x.shape[-1]
    inv_freq = 1.0 / (base ** (np.arange(0, dim, 2, dtype=np.int64).astype(float) / dim))
    freqs = np.outer(np.asarray(positions, dtype=float), inv_freq)
    emb = np.concatenate((freqs, freqs), axis=-1)
    cos, sin = np.cos(emb), np.sin(emb)
    return (x * cos) + (rotate_half(x) * sin)
