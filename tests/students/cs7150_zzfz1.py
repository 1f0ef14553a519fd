"""Port of zzfz1/CS7150-Homework-3, notebooks/HW3_1_LanguageModelArchitectures.ipynb (commit dad734d; solved in
9ea03fb, "Completes HW3."): CausalSelfAttention.forward's manual attention, a student's (Junxin "Gin" Zheng's) solution
(spring 2025) of Northeastern University's CS 7150 Deep Learning (David Bau), homework 3 "Language model
architectures, from RNNs to Transformers" (the course's CS7150/CS7150-Homework-3): in the notebook's nanoGPT-style
Transformer the students write the forward passes and, in CausalSelfAttention, the five lines of the non-flash
attention (the all-pairs weighting, the causal masking, the softmax, the weighted values and the merge of the heads).

Ports multi_head_attention (CausalSelfAttention as the notebook's `TransformerConfig(flash=False)` check builds it).

Conventions kept: the given __init__ asserts `config.n_embd % config.n_head == 0`, has `self.c_attn =
nn.Linear(config.n_embd, 3 * config.n_embd, bias=False)`, `self.c_proj = nn.Linear(config.n_embd, config.n_embd,
bias=False)` and the buffer `bias = torch.tril(torch.ones(block_size, block_size)).view(1, 1, block_size, block_size)`
(block_size = 100, TransformerConfig's default); the given forward(x) (no mask argument) reads `B, T, C = x.size()`
(3-D input only), cuts `q, k, v = self.c_attn(x).split(self.config.n_embd, dim=2)` (pieces of n_embd columns: unless
the fused projection is 3 * n_embd wide there are more or fewer than three, or a last piece the heads cannot be viewed
from) and views each as `(B, T, n_head, C // n_head).transpose(1, 2)` (heads of C // n_head columns for q, k AND v);
the student's lines: `att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))`, `att =
att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))` (always causal, cut from the 100 x 100 buffer: more
tokens raise), `att = F.softmax(att, dim=-1)`, `y = att @ v` and `y = y.transpose(1, 2).contiguous().view(B, T, C)`
(the heads merged into the input's width C), then the given `self.c_proj(y)`.

Left out: the flash branch (F.scaled_dot_product_attention, is_causal=True; the student wrote the other one), float32
arithmetic. Added for the contract only: n_embd is X.shape[-1], n_head is num_heads, c_attn's weight is W_Q, W_K and
W_V side by side, [W_Q | W_K | W_V] (GPT-2's fused layout), and c_proj's weight is W_O (set as parameters, not loaded
with a size check; x @ W for the Linear's x @ weight.T); `mask` is never read.
"""

import math

import numpy as np

BLOCK_SIZE = 100  # TransformerConfig.block_size default (the notebook's flash=False check uses the defaults)


def _torch_split(x, size, axis):  # torch.split(x, size, dim): pieces of `size`, the last one shorter
    return np.split(x, list(range(size, x.shape[axis], size)), axis=axis)


def _softmax(A, axis):  # F.softmax
    E = np.exp(A - np.max(A, axis=axis, keepdims=True))
    return E / np.sum(E, axis=axis, keepdims=True)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    n_embd, n_head = X.shape[-1], num_heads
    assert n_embd % n_head == 0
    c_attn = np.concatenate([W_Q, W_K, W_V], axis=1)
    c_proj = W_O
    bias = np.tril(np.ones((BLOCK_SIZE, BLOCK_SIZE))).reshape(1, 1, BLOCK_SIZE, BLOCK_SIZE)

    x = X
    B, T, C = x.shape
    q, k, v = _torch_split(x @ c_attn, n_embd, axis=2)
    k = k.reshape(B, T, n_head, C // n_head).swapaxes(1, 2)
    q = q.reshape(B, T, n_head, C // n_head).swapaxes(1, 2)
    v = v.reshape(B, T, n_head, C // n_head).swapaxes(1, 2)

    att = (q @ np.swapaxes(k, -2, -1)) * (1.0 / math.sqrt(k.shape[-1]))
    att = np.where(bias[:, :, :T, :T] == 0, -np.inf, att)  # masked_fill, out of place
    att = _softmax(att, axis=-1)
    y = att @ v
    y = np.ascontiguousarray(y.swapaxes(1, 2)).reshape(B, T, C)

    return y @ c_proj
