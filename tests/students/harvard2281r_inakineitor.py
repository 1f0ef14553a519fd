"""Port of inakineitor/cs2281r-hw0, src/cs2281r_hw0/gpt/bigram_manual_block.py (commit 2b191eb, August 2024): Head and
MultiHeadAttention, a student's solution of Harvard's CS 2281R (fall 2024), problem set 0 (write the GPT of Andrej
Karpathy's "Let's build GPT" lecture yourself and train it on tiny Shakespeare; the student's package also holds his
own BPE tokenizer, inakibpe, and the lecture's earlier stages, bigram_v1.py and bigram_self_attention_head.py).

Ports multi_head_attention (MultiHeadAttention.forward over its Heads).

Conventions kept: Block builds `MultiHeadAttention(num_heads, head_size)` with `head_size = num_embedding_dimensions //
num_heads`; each `Head(head_size)` has key_layer, query_layer AND value_layer = `nn.Linear(NUM_EMBEDDING_DIMENSIONS,
head_size, bias=False)` (the values' heads are head_size wide too) and the buffer `triangular_mask =
torch.tril(torch.ones(BLOCK_SIZE, BLOCK_SIZE))` with the file's global `BLOCK_SIZE = 8`; Head.forward(X) (no mask
argument) reads `_, num_steps, num_channels = X.shape` (3-D input only; num_channels is the input's width), computes
`weights = query @ key.transpose(-2, -1) * num_channels**-0.5` (scaled by the model width, not the head's),
`weights.masked_fill(self.triangular_mask[:num_steps, :num_steps] == 0, float("-inf"))` (always causal; more than 8
tokens raise), `F.softmax(weights, dim=-1)`, `output = weights @ value`; MultiHeadAttention.forward concatenates the
heads on the last axis and applies `self.projection_layer = nn.Linear(NUM_EMBEDDING_DIMENSIONS,
NUM_EMBEDDING_DIMENSIONS)`.

Left out: projection_layer's bias (zero here: the contract has none), float32 arithmetic. Added for the contract only:
NUM_EMBEDDING_DIMENSIONS (the file's global, 32) is X.shape[-1] and num_heads is the contract's (head_size as the Block
computes it), head h's key, query and value layers are columns [h * head_size, (h + 1) * head_size) of W_K, W_Q and
W_V, projection_layer is W_O (x @ W_O for the Linear's x @ weight.T), and the contract's `mask` is never read.
"""

import numpy as np

BLOCK_SIZE = 8  # the file's BLOCK_SIZE, the size of each Head's triangular_mask buffer


def _softmax(x, axis):  # F.softmax
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def _head(X, W_Q, W_K, W_V, cols):
    triangular_mask = np.tril(np.ones((BLOCK_SIZE, BLOCK_SIZE)))
    _, num_steps, num_channels = X.shape
    key = X @ W_K[:, cols]
    query = X @ W_Q[:, cols]
    weights = query @ np.swapaxes(key, -2, -1) * num_channels ** -0.5
    weights = np.where(triangular_mask[:num_steps, :num_steps] == 0, -np.inf, weights)  # masked_fill
    weights = _softmax(weights, axis=-1)
    value = X @ W_V[:, cols]
    return weights @ value


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    num_embedding_dimensions = X.shape[-1]
    head_size = num_embedding_dimensions // num_heads  # Block: head_size = num_embedding_dimensions // num_heads
    output = np.concatenate([_head(X, W_Q, W_K, W_V, slice(h * head_size, (h + 1) * head_size))
                             for h in range(num_heads)], axis=-1)
    return output @ W_O  # self.projection_layer
