"""Port of ShwetimaSakshi/GPT, code/model.py (commit 28bf8e0): CSABlock, a student's solution (spring 2024) of Texas
A&M University's CSCE 421 Machine Learning, assignment "GPT for Text Generation" (a conditional decoder-only GPT on the
SCAN command-to-action dataset; the repository names no course, but its code/ folder is the CSCE 421 skeleton that
Rahul-Gonsalves/GPT-scan-translator's README names, dataset.py and trainer.py identical; that term the students fill
in CSABlock's projection layers and causal-mask buffer in __init__ as well as its forward, and the generation loop).

Ports multi_head_attention (CSABlock.forward).

Conventions kept: the skeleton asserts `config.n_embd % config.n_head == 0` and gives the readout `self.proj =
nn.Linear(config.n_embd, config.n_embd)`; the student's __init__ makes `self.key`, `self.query` and `self.value` as
`nn.Linear(config.n_embd, config.n_embd)` (every weight D x D) and registers `self.mask =
torch.tril(torch.ones(config.block_size, config.block_size)).view(1, 1, config.block_size, config.block_size)`; the
student's forward(x, layer_past=None) (no mask argument: always causal) reads `B, L, C = x.size()` (3-D input only),
`queries = self.query(x).view(B, L, self.n_head, C // self.n_head).transpose(1, 2)` (likewise keys and values: heads of
C // n_head columns for all three), `attn_save = torch.matmul(queries, keys.transpose(-2, -1)) / (keys.size(-1) **
0.5)`, `attn_save.masked_fill(self.mask[:, :, :L, :L] == 0, float('-inf'))` (out of place; cut from the (1, 1,
block_size, block_size) buffer: more tokens than block_size raise against the scores), `F.softmax(attn_save, dim=-1)`,
`y = torch.matmul(attn_save_with_dropout, values).transpose(1, 2).contiguous().view(B, L, C)` (merged into the input's
width C), then the skeleton's `self.proj(y)`.

Left out: the dropouts (the identity at evaluation), the Linear layers' biases (zero-initialised by the skeleton's
_init_weights; the contract has none), the returned attention map (attn_save), float32 arithmetic. Added for the
contract only: n_embd is X.shape[-1], n_head is num_heads, block_size is main.py's `--max_len` default 128 (train.py:
`GPTConfig(vocab_size, max_len, ...)`); query, key, value and proj hold W_Q, W_K, W_V and W_O (x @ W for the Linear's x
@ weight.T), each loaded with load_state_dict's size check (a weight other than (D, D) raises); `mask` is never read.
"""

import numpy as np

BLOCK_SIZE = 128  # main.py: --max_len default 128, the GPTConfig's block_size


def _load(W, shape):  # load_state_dict: a parameter of another shape is a size mismatch
    if W.shape != shape:
        raise RuntimeError(f"size mismatch: copying a param with shape {W.shape}, the current shape is {shape}")
    return W


def _softmax(A, axis):  # F.softmax
    E = np.exp(A - np.max(A, axis=axis, keepdims=True))
    return E / np.sum(E, axis=axis, keepdims=True)


class _CSABlock:
    def __init__(self, n_embd, n_head, block_size, W_Q, W_K, W_V, W_O):
        assert n_embd % n_head == 0
        self.key = _load(W_K, (n_embd, n_embd))
        self.query = _load(W_Q, (n_embd, n_embd))
        self.value = _load(W_V, (n_embd, n_embd))
        self.proj = _load(W_O, (n_embd, n_embd))
        self.mask = np.tril(np.ones((block_size, block_size))).reshape(1, 1, block_size, block_size)
        self.n_head = n_head

    def forward(self, x):
        B, L, C = x.shape

        queries = np.swapaxes((x @ self.query).reshape(B, L, self.n_head, C // self.n_head), 1, 2)
        keys = np.swapaxes((x @ self.key).reshape(B, L, self.n_head, C // self.n_head), 1, 2)
        values = np.swapaxes((x @ self.value).reshape(B, L, self.n_head, C // self.n_head), 1, 2)

        attn_save = (queries @ np.swapaxes(keys, -2, -1)) / (keys.shape[-1] ** 0.5)
        attn_save = np.where(self.mask[:, :, :L, :L] == 0, -np.inf, attn_save)  # masked_fill, out of place
        attn_save = _softmax(attn_save, axis=-1)

        y = np.swapaxes(attn_save @ values, 1, 2).reshape(B, L, C)

        return y @ self.proj


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    block = _CSABlock(X.shape[-1], num_heads, BLOCK_SIZE, W_Q, W_K, W_V, W_O)
    return block.forward(X)
