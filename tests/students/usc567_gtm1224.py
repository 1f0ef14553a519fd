"""Port of gtm1224/MachineLearningProjects_567, Transformer/work/transformer_model.py (commit c0ccb12): Head,
MultiHeadAttention and Block, a student's solution (spring 2025) of the University of Southern California's CSCI 567
Machine Learning, the Vocareum programming assignment "Transformer Implementation (60 points)" (a small decoder-only
character-level transformer LM on tiny Shakespeare; the students fill in seven TODOs of transformer_model.py: TODO 1
Head.forward, TODO 2 MultiHeadAttention.forward, TODO 3 Block.forward, then the embeddings, the LM head, the loss and
the generation loop; the skeleton's layers follow Karpathy's "Let's build GPT" lecture code).

Ports multi_head_attention (MultiHeadAttention as the skeleton's Block builds it).

Conventions kept: the skeleton's Head(n_embd, head_size, block_size) has `self.key`, `self.query` and `self.value`
`nn.Linear(n_embd, head_size, bias=False)` and the buffer `self.tril = torch.tril(torch.ones(block_size, block_size))`;
the student's forward reads `B, T, C = x.shape` (3-D input only), computes `attention_scores = q @ k.transpose(-2, -1)`,
divides by `head_size ** 0.5` with `head_size = k.size(-1)`, `attention_scores.masked_fill(self.tril[:T, :T] == 0,
float('-inf'))` (out of place; cut from the buffer: more tokens than block_size raise against the scores),
`F.softmax(attention_scores, dim=-1)` and returns `attention_weights @ v`. The skeleton's
MultiHeadAttention(num_heads, head_size, n_embd, block_size) has `self.heads = nn.ModuleList([Head(n_embd, head_size,
block_size) for _ in range(num_heads)])` and `self.proj = nn.Linear(head_size * num_heads, n_embd)`; the student's
forward(x) (no mask argument: always causal) is `head_out = [h(x) for h in self.heads]`, `torch.cat(head_out,
dim=-1)`, then the skeleton's `self.proj(out)`. The skeleton's Block builds it as `MultiHeadAttention(n_head, n_embd //
n_head, n_embd, block_size)` (heads of D // H columns for the keys, queries AND values).

Left out: proj's bias (the contract has none), float32 arithmetic. Added for the contract only: n_embd is X.shape[-1],
n_head is num_heads, head_size is n_embd // n_head (the skeleton's Block), block_size is train.py's 32; head h's key,
query and value are columns [h*s, (h+1)*s) of W_K, W_Q and W_V (s = head_size) and proj's weight is W_O (x @ W for the
Linear's x @ weight.T), each loaded with load_state_dict's size check (a slice other than (D, s) or a W_O other than
(H*s, D) raises); `mask` is never read.
"""

import numpy as np

BLOCK_SIZE = 32  # train.py: hp['block_size'] = 32


def _load(W, shape):  # load_state_dict: a parameter of another shape is a size mismatch
    if W.shape != shape:
        raise RuntimeError(f"size mismatch: copying a param with shape {W.shape}, the current shape is {shape}")
    return W


def _softmax(A, axis):  # F.softmax
    E = np.exp(A - np.max(A, axis=axis, keepdims=True))
    return E / np.sum(E, axis=axis, keepdims=True)


class _Head:
    def __init__(self, n_embd, head_size, block_size, key, query, value):
        self.key = _load(key, (n_embd, head_size))
        self.query = _load(query, (n_embd, head_size))
        self.value = _load(value, (n_embd, head_size))
        self.tril = np.tril(np.ones((block_size, block_size)))

    def forward(self, x):
        _B, T, _C = x.shape
        k = x @ self.key
        q = x @ self.query
        v = x @ self.value
        attention_scores = q @ np.swapaxes(k, -2, -1)
        head_size = k.shape[-1]
        attention_scores = attention_scores / head_size ** 0.5
        attention_scores = np.where(self.tril[:T, :T] == 0, -np.inf, attention_scores)  # masked_fill, out of place
        attention_weights = _softmax(attention_scores, axis=-1)
        out = attention_weights @ v
        return out


class _MultiHeadAttention:
    def __init__(self, num_heads, head_size, n_embd, block_size, W_Q, W_K, W_V, W_O):
        s = head_size
        self.heads = [_Head(n_embd, head_size, block_size, W_K[:, h * s:(h + 1) * s], W_Q[:, h * s:(h + 1) * s],
                            W_V[:, h * s:(h + 1) * s]) for h in range(num_heads)]
        self.proj = _load(W_O, (head_size * num_heads, n_embd))

    def forward(self, x):
        head_out = [h.forward(x) for h in self.heads]
        out = np.concatenate(head_out, axis=-1)
        out = out @ self.proj
        return out


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    n_embd = X.shape[-1]
    sa = _MultiHeadAttention(num_heads, n_embd // num_heads, n_embd, BLOCK_SIZE, W_Q, W_K, W_V, W_O)  # Block
    return sa.forward(X)
