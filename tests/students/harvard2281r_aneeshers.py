"""Port of Aneeshers/CS2281rHW0, gpt_pos_opt_train.py (commit 46550f7, August 2024): Head (with its
get_sinusoidal_embeddings and apply_rotary_position_embeddings) and MultiHeadAttention, a student's solution of
Harvard's CS 2281R (fall 2024), problem set 0 (write the GPT of Andrej Karpathy's "Let's build GPT" lecture yourself
and train it on tiny Shakespeare); the student's README: "GPT from Scratch but with Parameter-free optimization and
different positional embeddings" (learned, sinusoidal, Fourier features, or RoPE inside each head, picked by
--pos_encoding).

Ports multi_head_attention (MultiHeadAttention.forward over its Heads, with the script's default --pos_encoding
learned: the heads add no positions) and rope (the Head's RoPE path: get_sinusoidal_embeddings, then
apply_rotary_position_embeddings).

Conventions kept: Block builds `MultiHeadAttention(n_head, head_size, pos_encoding)` with `head_size = n_embd //
n_head`; each `Head(head_size, pos_encoding)` has key, query AND value = `nn.Linear(N_EMBD, head_size, bias=False)`
(the values' heads are head_size wide too) and the buffer `tril = torch.tril(torch.ones(BLOCK_SIZE, BLOCK_SIZE))`
(BLOCK_SIZE = 256); Head.forward(x) (no mask argument) reads `B, T, C = x.shape` (3-D input only), computes `wei = q @
k.transpose(-2, -1) * k.shape[-1]**-0.5`, `wei.masked_fill(self.tril[:T, :T] == 0, float('-inf'))` (always causal;
more than 256 tokens raise), `F.softmax(wei, dim=-1)`, `wei @ v`; MultiHeadAttention concatenates the heads on the
last axis and applies `self.proj = nn.Linear(head_size * num_heads, N_EMBD)`. With pos_encoding 'rope' the Head calls
`get_sinusoidal_embeddings(T, self.head_size)`: positions `torch.arange(n_positions)` (0..T-1, whatever the token's
position), `div_term = torch.exp(torch.arange(0, dim, 2) * (-math.log(10000.0) / dim))` (base 10000 hard-coded) and the
interleaved table `sinusoidal_emb[:, 0::2] = sin(position * div_term)`, `sinusoidal_emb[:, 1::2] = cos(position *
div_term)`; then apply_rotary_position_embeddings: `sin, cos = sinusoidal_pos.chunk(2, dim=-1)` (the table's first and
second HALVES, each a mix of sines and cosines), `q_rot = torch.stack((-q[..., 1::2], q[..., ::2]), dim=-1)`, reshaped
to (..., d/2, 2) and multiplied by `torch.stack((cos, sin), dim=-1)`, then reshaped to q's shape and returned (no `q *
cos` term is added), and likewise for k.

Left out: dropout (the identity at evaluation), proj's bias (zero here: the contract has none), the device moves,
float32 arithmetic. Added for the contract only: N_EMBD (the script's global, 384) is X.shape[-1] and n_head is
num_heads (head_size as the Block computes it), head h's key, query and value layers are columns [h * head_size, (h + 1)
* head_size) of W_K, W_Q and W_V, proj is W_O (x @ W_O for the Linear's x @ weight.T), the contract's `mask` is never
read; rope(x, positions, base) rotates x as the Head rotates q (T = x.shape[-2], the number of tokens, and head_size =
x.shape[-1]); `positions` and `base` are never read.
"""

import math

import numpy as np

BLOCK_SIZE = 256  # the script's BLOCK_SIZE, the size of each Head's tril buffer


def _softmax(x, axis):  # F.softmax
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def _get_sinusoidal_embeddings(n_positions, dim):
    position = np.arange(n_positions, dtype=float)[:, None]
    div_term = np.exp(np.arange(0, dim, 2).astype(float) * (-math.log(10000.0) / dim))
    sinusoidal_emb = np.zeros((n_positions, dim))
    sinusoidal_emb[:, 0::2] = np.sin(position * div_term)
    sinusoidal_emb[:, 1::2] = np.cos(position * div_term)
    return sinusoidal_emb


def _apply_rotary_position_embeddings(sinusoidal_pos, q, k):
    sin, cos = np.split(sinusoidal_pos, 2, axis=-1)  # sinusoidal_pos.chunk(2, dim=-1)
    q_rot = np.stack((-q[..., 1::2], q[..., ::2]), axis=-1)
    k_rot = np.stack((-k[..., 1::2], k[..., ::2]), axis=-1)
    q_rot = np.reshape(q_rot, (*q.shape[:-1], q.shape[-1] // 2, 2)) * np.stack((cos, sin), axis=-1)
    k_rot = np.reshape(k_rot, (*k.shape[:-1], k.shape[-1] // 2, 2)) * np.stack((cos, sin), axis=-1)
    q_rot = np.reshape(q_rot, q.shape)
    k_rot = np.reshape(k_rot, k.shape)
    return q_rot, k_rot


def rope(x, positions, base=10000.0):
    x = np.asarray(x)
    sinusoidal_pos = _get_sinusoidal_embeddings(x.shape[-2], x.shape[-1])
    x_rot, _ = _apply_rotary_position_embeddings(sinusoidal_pos, x, x)
    return x_rot


def _head(x, W_Q, W_K, W_V, cols):
    tril = np.tril(np.ones((BLOCK_SIZE, BLOCK_SIZE)))
    _B, T, _C = x.shape
    k = x @ W_K[:, cols]
    q = x @ W_Q[:, cols]
    v = x @ W_V[:, cols]
    wei = q @ np.swapaxes(k, -2, -1) * k.shape[-1] ** -0.5
    wei = np.where(tril[:T, :T] == 0, -np.inf, wei)  # masked_fill
    wei = _softmax(wei, axis=-1)
    return wei @ v


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    n_embd = X.shape[-1]
    head_size = n_embd // num_heads  # Block: head_size = n_embd // n_head
    out = np.concatenate([_head(X, W_Q, W_K, W_V, slice(h * head_size, (h + 1) * head_size))
                          for h in range(num_heads)], axis=-1)
    return out @ W_O  # self.proj
