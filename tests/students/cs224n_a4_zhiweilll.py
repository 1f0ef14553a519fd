"""Port of zhiweilll/cs224n_winter2025, a4/src/attention.py (precompute_rotary_emb, apply_rotary_emb): a student's
solution of Stanford CS224n assignment 4 (minGPT with rotary embeddings, part g).

Conventions kept: precompute_rotary_emb(dim, max_positions) builds a float32 (max_positions, dim/2, 2) table of
cos/sin of positions 0..max_positions-1 times 1 / 10000 ** (2i / dim) (the base is fixed at 10000: the assignment
gives the function no base); apply_rotary_emb(x, rope_cache) takes any leading axes (`*leading, T, dim = x.shape`),
cuts the table to its first T rows (`rope_cache[:T]`: token t is always rotated at position t, the positions given
play no part) and rotates the interleaved pairs (x[..., 2i], x[..., 2i+1]) counter-clockwise. The table is built
for config.block_size = 128 positions (the assignment's run.py). Added for the contract only: rope(x, positions,
base) builds the student's table and applies it to x (positions and base are not read, as in the student's
CausalSelfAttention, which has no positions to pass).
"""

import numpy as np

BLOCK_SIZE = 128  # config.block_size in the assignment's run.py: the RoPE table's length


def precompute_rotary_emb(dim, max_positions):
    assert dim % 2 == 0, "RoPE dim must be even (pairs of features)."
    half_dim = dim // 2
    positions = np.arange(max_positions, dtype=np.float32)
    idx = np.arange(half_dim, dtype=np.float32)
    inv_freq = np.float32(1.0) / (np.float32(10000) ** (np.float32(2.0) * idx / np.float32(dim)))
    angles = positions[:, None] * inv_freq[None, :]
    return np.stack([np.cos(angles), np.sin(angles)], axis=-1)  # (T, D/2, 2), float32


def apply_rotary_emb(x, rope_cache):
    *leading, T, dim = x.shape
    assert dim % 2 == 0, "RoPE dim must be even (pairs of features)."
    half_dim = dim // 2
    rope_cache = rope_cache[:T]
    cos = rope_cache[..., 0].astype(x.dtype)
    sin = rope_cache[..., 1].astype(x.dtype)
    x_pair = x.reshape(*leading, T, half_dim, 2)
    x_even, x_odd = x_pair[..., 0], x_pair[..., 1]
    cos = cos.reshape(*([1] * len(leading)), T, half_dim)
    sin = sin.reshape(*([1] * len(leading)), T, half_dim)
    rotated_even = x_even * cos - x_odd * sin
    rotated_odd = x_even * sin + x_odd * cos
    return np.stack([rotated_even, rotated_odd], axis=-1).reshape(*leading, T, dim)


def rope(x, positions, base=10000.0):
    x = np.asarray(x, dtype=float)
    return apply_rotary_emb(x, precompute_rotary_emb(x.shape[-1], BLOCK_SIZE))
