"""Port of aTiannnnnn/ng-video-lecture, Practice/model.py (commit 3f870cf): Head and MultiHeadAttention, a student's own
rewrite of the GPT of Andrej Karpathy's "Neural Networks: Zero to Hero" course (lecture 7, "Let's build GPT: from
scratch, in code, spelled out"), written step by step in the student's fork of the course's repository.

Ports multi_head_attention.

Conventions kept: MultiHeadAttention(num_heads, head_size, embed_size, block_size) builds num_heads `Head(head_size,
embed_size, block_size)` whose key, query AND value layers are all `nn.Linear(embed_size, head_size, bias=False)` (the
values' heads are head_size wide, like the queries') and `self.proj = nn.Linear(num_heads * head_size, embed_size)`;
Head.forward computes `wei = torch.matmul(q, k.transpose(-2, -1)) / (self.head_size ** 0.5)`, then
`wei.masked_fill(self.mask[:self.block_size, :self.block_size] == 0, float('-inf'))` with the buffer
`torch.tril(torch.ones(block_size, block_size))`: the WHOLE (block_size, block_size) triangle, never cut to the
sequence's length (out-of-place masked_fill broadcasts the mask and the scores: it raises unless N equals block_size,
and N = 1 grows to block_size rows that the product with v then refuses), F.softmax(wei, dim=-1), `torch.matmul(wei,
v)`; the heads are concatenated on the last axis and projected (`self.proj(out)`). The student's attention has no mask
argument: every head is causal with its own buffer. block_size = 8: Practice/test1_non_distributed_training.py trains
with `model_paras = model_paras_small` ('block_size': 8, 'head_size': 8, 'num_heads': 4). Left out: the Linear
layers' biases (proj's), dropout (the identity at evaluation). Added for the contract only: head h's layers are
columns [h * head_size, (h + 1) * head_size) of W_Q, W_K and W_V with head_size = W_Q.shape[-1] // num_heads (the
constructor's argument), embed_size is X.shape[-1], W_O is proj, and a `mask` parameter that is never read.
"""

import numpy as np

BLOCK_SIZE = 8  # model_paras_small['block_size'] (Practice/test1_non_distributed_training.py)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    head_size = W_Q.shape[-1] // num_heads
    block_size = BLOCK_SIZE
    tril = np.tril(np.ones((block_size, block_size)))

    def head(h):
        cols = slice(h * head_size, (h + 1) * head_size)
        k = X @ W_K[:, cols]
        q = X @ W_Q[:, cols]
        wei = np.matmul(q, np.swapaxes(k, -2, -1)) / (head_size ** 0.5)
        wei = np.where(tril[:block_size, :block_size] == 0, -np.inf, wei)  # masked_fill broadcasts mask and scores
        E = np.exp(wei - np.max(wei, axis=-1, keepdims=True))
        wei = E / np.sum(E, axis=-1, keepdims=True)
        v = X @ W_V[:, cols]
        return np.matmul(wei, v)

    out = np.concatenate([head(h) for h in range(num_heads)], axis=-1)
    return out @ W_O
