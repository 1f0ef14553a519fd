"""Port of breburd/ChatGPTFromScratch, FinalProject/rotary_position_embedding.py (commit 25b9175):
RotaryPositionalEmbedding, rotate_half and apply_rotary_pos_emb, a student's final project of Johns Hopkins University
EN.705.743 "ChatGPT from Scratch" (the course's GPT with its learned position embedding replaced by rotary embeddings,
FinalProject/gpt.py).

Ports the contract's rope only (the student's own module; the CustomMHA of FinalProject/gpt.py is the course's given
multi-head attention, into which the student inserted `q_heads = self.rope.forward(q_heads)` on (B, S, n_heads, d_head)
heads).

Conventions kept: RotaryPositionalEmbedding(d_model, max_seq_len=512) builds, with its own base `N = 10000`, `inv_freq =
1. / (N ** (torch.arange(0, d_model, 2).float() / d_model))`, `inv_freq = torch.cat((inv_freq, inv_freq), dim=-1)`,
`position = torch.arange(max_seq_len).float()` and the float32 buffers `cos`, `sin` of `torch.outer(position,
inv_freq)` (positions 0..511, never an argument); forward(x, seq_len=None) takes `seq_len = x.size(1)` (the tokens of
a (B, S, n_heads, d_head) input sit on axis 1), `cos = self.cos[:seq_len].view(1, seq_len, 1, -1)` (and sin), and
returns `(x * cos) + (rotate_half(x) * sin)` with `x1, x2 = x.chunk(2, dim=-1)`, `torch.cat((-x2, x1), dim=-1)`
(coordinate i paired with i + d/2: the GPT-NeoX "rotate_half" layout). On the contract's (..., N, d) inputs axis 1 is
the width of a 2-D input, the tokens of a 3-D one and the heads of a 4-D one: the tables broadcast against x (to
another shape than x's, or raising when the sizes differ). Added for the contract only: rope(x, positions, base)
applies a fresh RotaryPositionalEmbedding(d_model=x.shape[-1]) (max_seq_len 512, gpt.py's default) to x; `positions`
and `base` are never read.
"""

import numpy as np


def _rotate_half(x):
    half = -(-x.shape[-1] // 2)  # x.chunk(2, dim=-1)
    x1, x2 = x[..., :half], x[..., half:]
    return np.concatenate((-x2, x1), axis=-1)


def _apply_rotary_pos_emb(x, cos, sin):
    return (x * cos) + (_rotate_half(x) * sin)


def rope(x, positions, base=10000.0):
    x = np.asarray(x)
    d_model, max_seq_len = x.shape[-1], 512  # RotaryPositionalEmbedding(d_model), max_seq_len=512
    N = 10000
    inv_freq = (1.0 / (N ** (np.arange(0, d_model, 2).astype(np.float32) / np.float32(d_model)))).astype(np.float32)
    inv_freq = np.concatenate((inv_freq, inv_freq), axis=-1)
    position = np.arange(max_seq_len).astype(np.float32)
    sinusoid_inp = np.outer(position, inv_freq).astype(np.float32)
    cos_buf, sin_buf = np.cos(sinusoid_inp), np.sin(sinusoid_inp)
    seq_len = x.shape[1]  # x.size(1)
    cos = cos_buf[:seq_len].reshape(1, seq_len, 1, -1)  # .view(1, seq_len, 1, -1)
    sin = sin_buf[:seq_len].reshape(1, seq_len, 1, -1)
    return _apply_rotary_pos_emb(x, cos, sin)
