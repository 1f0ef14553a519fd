"""Port of evangronberg/chatgpt-from-scratch, module-05/module5_programming/mha.py (commit e3b5492): CustomMHA.forward,
a student's solution of Johns Hopkins University EN.705.743 "ChatGPT from Scratch" (summer 2024), programming assignment
5 (the multi-head attention of programming assignment 4 with the causal mask added; the course's gpt.py imports it).

Ports the contract's multi_head_attention only (the student wrote no other contract function).

Conventions kept: the course's CustomMHA(d_model, n_heads) holds one fused `self.W_qkv` of shape (3 * d_model,
d_model) and `self.W_o` of shape (d_model, d_model); forward computes `t = torch.matmul(x, self.W_qkv.T)`, `d_h =
int(self.d_model / self.n_heads)`, `batch_size, seq_length = x.shape[0], x.shape[1]` (a (batch, sequence, d_model)
input only), `t.reshape(batch_size, seq_length, 3, self.d_model)` then `chunk(3, dim=2)` (the fused projection cut into
chunks of d_model columns: it raises unless it is 3 * d_model wide), each chunk `squeeze(2).reshape(batch_size,
seq_length, self.n_heads, d_h).transpose(1, 2)` (heads of width d_model // n_heads for queries, keys and values), then
its own causal mask: `softmax_arg = torch.tril(torch.matmul(q, k.mT))`, `softmax_arg[softmax_arg == 0] = -torch.inf`
(the zeros above the diagonal become -inf, and so does any allowed score that is exactly 0) and `softmax_arg /=
math.sqrt(d_h)`, torch.softmax(dim=-1), `@ v`, `transpose(1, 2).reshape(batch_size, seq_length, -1)` and
`torch.matmul(y_prime_reshaped, self.W_o.T)`. Forward has no mask argument: it is always causal. Left out: the cast
`x.to(self.W_qkv.dtype)` to the float32 parameters (computed in float64 here; within the contract's tolerance).
Added for the contract only: d_model is X.shape[-1] (the constructor's argument), `self.W_qkv.T` is [W_Q | W_K | W_V]
and `self.W_o.T` is W_O (the contract's weights are stored transposed, (in, out)); the contract's `mask` is never
read.
"""

import math

import numpy as np


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model, n_heads = X.shape[-1], num_heads
    x = X
    t = x @ np.concatenate([W_Q, W_K, W_V], axis=1)  # torch.matmul(x, self.W_qkv.T): (B, S, 3D)
    d_h = int(d_model / n_heads)
    batch_size, seq_length = x.shape[0], x.shape[1]
    t_reshaped = t.reshape(batch_size, seq_length, 3, d_model)
    t_split = np.split(t_reshaped, 3, axis=2)  # chunk(3, dim=2)
    q, k, v = [np.swapaxes(np.squeeze(vector, 2).reshape(batch_size, seq_length, n_heads, d_h), 1, 2)
               for vector in t_split]
    softmax_arg = np.tril(q @ np.swapaxes(k, -1, -2))
    softmax_arg[softmax_arg == 0] = -np.inf
    softmax_arg /= math.sqrt(d_h)
    E = np.exp(softmax_arg - np.max(softmax_arg, axis=-1, keepdims=True))  # torch.softmax(dim=-1)
    y_prime = (E / np.sum(E, axis=-1, keepdims=True)) @ v
    y_prime_reshaped = np.swapaxes(y_prime, 1, 2).reshape(batch_size, seq_length, -1)
    return y_prime_reshaped @ W_O
