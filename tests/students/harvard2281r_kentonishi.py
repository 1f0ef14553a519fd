"""Port of KentoNishi/cs2281r-pset0, gpt.py (commit 1e2de61, August 2024): MultiHeadSelfAttention, a student's
solution of Harvard's CS 2281R (fall 2024), problem set 0 (write the GPT of Andrej Karpathy's "Let's build GPT" lecture
yourself, train it on tiny Shakespeare and report your "implementation deviations"): the student replaced the lecture's
list of Head modules by a MultiHeadSelfAttention of his own ("CUSTOM: Parallelized Multi-Head Self-Attention", line 94
of the file, as his pset0.md says).

Ports multi_head_attention (MultiHeadSelfAttention.forward).

Conventions kept: Block builds `MultiHeadSelfAttention(n_head, head_size, n_embd)` with `head_size = n_embd // n_head`;
the module has `self.key`, `self.query` AND `self.value` = `nn.Linear(n_embd, num_heads * head_size, bias=False)` (the
values as wide as the keys), `self.proj = nn.Linear(num_heads * head_size, n_embd)` and the buffer `tril =
torch.tril(torch.ones(block_size, block_size))` (block_size = 256, the script's global); forward(x) (no mask argument)
reads `B, T, C = x.shape` (3-D input only), views each projection as `(B, T, num_heads, head_size)` (it raises unless
the projection is num_heads * head_size wide) and transposes it to (B, num_heads, T, head_size), computes `wei = q @
k.transpose(-2, -1) * self.head_size**-0.5`, `wei.masked_fill(self.tril[:T, :T] == 0, float("-inf"))` (always causal;
more than 256 tokens raise), `F.softmax(wei, dim=-1)`, `out = wei @ v`, `out.transpose(1, 2).contiguous().view(B, T,
self.num_heads * self.head_size)` and `self.proj(out)`.

Left out: dropout (the identity at evaluation), proj's bias (zero here: the contract has none), float32 arithmetic.
Added for the contract only: n_embd is X.shape[-1] and n_head is num_heads (head_size as the Block computes it), the
key, query and value layers are W_K, W_Q and W_V (x @ W for the Linear's x @ weight.T), proj is W_O, and the contract's
`mask` is never read.
"""

import numpy as np

BLOCK_SIZE = 256  # the script's block_size, the size of the tril buffer


def _softmax(x, axis):  # F.softmax
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    n_embd = X.shape[-1]
    head_size = n_embd // num_heads  # Block: head_size = n_embd // n_head
    tril = np.tril(np.ones((BLOCK_SIZE, BLOCK_SIZE)))

    B, T, _C = X.shape

    k = (X @ W_K).reshape(B, T, num_heads, head_size)  # .view(B, T, num_heads, head_size)
    q = (X @ W_Q).reshape(B, T, num_heads, head_size)
    v = (X @ W_V).reshape(B, T, num_heads, head_size)

    k = np.swapaxes(k, 1, 2)  # (B, num_heads, T, head_size)
    q = np.swapaxes(q, 1, 2)
    v = np.swapaxes(v, 1, 2)

    wei = q @ np.swapaxes(k, -2, -1) * head_size ** -0.5
    wei = np.where(tril[:T, :T] == 0, -np.inf, wei)  # masked_fill
    wei = _softmax(wei, axis=-1)

    out = wei @ v
    out = np.swapaxes(out, 1, 2).reshape(B, T, num_heads * head_size)
    return out @ W_O  # self.proj
