"""Port of pyotrr-politics/305b_final, architecture.py (commit 6f73561): MultiHeadAttention and TransformerBlock, a
student's (Peter Park's) solution (winter 2025) of Stanford STATS 305B (Models and Algorithms for Discrete Data, Scott
Linderman), homework 4 "Large Language Models", as kept in his repository of the homework's part 2 mini project
(readme.md: "replication codes for the HW4 Part 2 mini project. The project adds `corrector` on top of the vanilla
transformer given in the homework"): the part 1 MultiHeadAttention (its signature and docstring are the course
notebook's, slinderman/stats305b assignments/hw4/hw4.ipynb) and TransformerBlock he wrote, which the project's
Predictor and Corrector stack.

Ports multi_head_attention (MultiHeadAttention as his TransformerBlock builds it).

Conventions kept: MultiHeadAttention(context_window_size, num_heads, head_size, embed_size=384) holds, per head,
`nn.Linear(embed_size, head_size, bias=False)` key, query and value layers and an output layer `nn.Linear(head_size,
embed_size, bias=False)` (nn.ModuleList each); forward(x) (no mask argument) starts from `head_outputs =
torch.zeros_like(x)` and for each head computes `attn_weights = torch.einsum('bij, bkj -> bik', self.query[i](x),
self.key[i](x))` (3-D input only), `tril = torch.tril(torch.ones(attn_weights.shape))` (always causal, sized by the
scores), `attn_weights = (attn_weights * tril)/math.sqrt(self.head_size)` (the future scores are multiplied by 0, not
set to -inf), `F.softmax(attn_weights, dim=-1)` and adds `self.output[i](attn_weights @ self.value[i](x))` (the sum
over heads of each head's own output projection). TransformerBlock(vocab_size, context_window_size, embed_size=384,
num_heads=6) sets `self.head_size = embed_size // num_heads` and builds `MultiHeadAttention(context_window_size,
num_heads, self.head_size, embed_size=384)`: the course's default width 384, not the block's embed_size, so every layer
of it takes and gives 384 columns.

Left out: `.to(device)`, float32 arithmetic. Added for the contract only: the block's embed_size is X.shape[-1] (so
head_size = X.shape[-1] // num_heads) and the module's embed_size is the 384 its TransformerBlock passes; head h's key,
query and value layers are columns [h*s, (h+1)*s) of W_K, W_Q and W_V (s = head_size) and its output layer rows [h*s,
(h+1)*s) of W_O (x @ W for the Linear's x @ weight.T), each loaded with load_state_dict's size check (a slice other than
(384, s), or (s, 384) for the output, raises); context_window_size is never read, nor is `mask`.
"""

import math

import numpy as np

MODULE_EMBED_SIZE = 384  # TransformerBlock: MultiHeadAttention(..., self.head_size, embed_size=384)


def _load(W, shape):  # load_state_dict: a parameter of another shape is a size mismatch
    if W.shape != shape:
        raise RuntimeError(f"size mismatch: copying a param with shape {W.shape}, the current shape is {shape}")
    return W


def _softmax(A, axis):  # F.softmax
    E = np.exp(A - np.max(A, axis=axis, keepdims=True))
    return E / np.sum(E, axis=axis, keepdims=True)


class _MultiHeadAttention:
    def __init__(self, context_window_size, num_heads, head_size, embed_size, W_Q, W_K, W_V, W_O):
        s = head_size
        self.num_heads = num_heads
        self.head_size = head_size
        self.context_window_size = context_window_size
        self.key = [_load(W_K[:, h * s:(h + 1) * s], (embed_size, head_size)) for h in range(num_heads)]
        self.query = [_load(W_Q[:, h * s:(h + 1) * s], (embed_size, head_size)) for h in range(num_heads)]
        self.value = [_load(W_V[:, h * s:(h + 1) * s], (embed_size, head_size)) for h in range(num_heads)]
        self.output = [_load(W_O[h * s:(h + 1) * s, :], (head_size, embed_size)) for h in range(num_heads)]

    def forward(self, x):
        head_outputs = np.zeros_like(x)
        for i in range(self.num_heads):
            attn_weights = np.einsum("bij,bkj->bik", x @ self.query[i], x @ self.key[i])
            tril = np.tril(np.ones(attn_weights.shape))
            attn_weights = (attn_weights * tril) / math.sqrt(self.head_size)
            attn_weights = _softmax(attn_weights, axis=-1)
            head_outputs = head_outputs + (attn_weights @ (x @ self.value[i])) @ self.output[i]

        return head_outputs


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    embed_size = X.shape[-1]  # the TransformerBlock's embed_size
    head_size = embed_size // num_heads
    atten_heads = _MultiHeadAttention(None, num_heads, head_size, MODULE_EMBED_SIZE, W_Q, W_K, W_V, W_O)
    return atten_heads.forward(X)
