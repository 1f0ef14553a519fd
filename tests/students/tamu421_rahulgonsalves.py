"""Port of Rahul-Gonsalves/GPT-scan-translator, code/model.py (commit d654bfd): CSABlock, a student's solution (fall
2025) of Texas A&M University's CSCE 421 Machine Learning, assignment #5 "GPT for Text Generation" (a conditional
decoder-only GPT on the SCAN command-to-action dataset, built on the course's code/ skeleton: the students fill in the
"### YOUR CODE HERE ###" blocks of CSABlock.forward, the causal self-attention of the model, and the generation loop).

Ports multi_head_attention (CSABlock.forward).

Conventions kept: the skeleton's CSABlock(config) asserts `config.n_embd % config.n_head == 0`, makes `self.Q_proj`,
`self.K_proj`, `self.V_proj` and the readout `self.proj` as `nn.Linear(config.n_embd, config.n_embd)` (every weight D x
D) and registers `self.mask = torch.tril(torch.ones(block_size, block_size)).view(1, 1, block_size, block_size)`; the
student's forward(x, layer_past=None) (no mask argument: always causal) reads `B, L, C = x.size()` (3-D input only),
projects `Q = self.Q_proj(x)` (likewise K, V), splits the heads with `.view(B, L, self.n_head, C // self.n_head)
.transpose(1, 2)` (heads of C // n_head columns for the queries, keys AND values), computes `att = (Q @
K.transpose(-2, -1)) * (1.0 / math.sqrt(K.size(-1)))`, `att.masked_fill(self.mask[:, :, :L, :L] == 0, float('-inf'))`
(out of place; cut from the (1, 1, block_size, block_size) buffer: more tokens than block_size raise against the
scores), `F.softmax(att, dim=-1)`, `y = att @ V`, `y.transpose(1, 2).contiguous().view(B, L, C)` (merged into the
input's width C), then the skeleton's `self.proj(y)`.

Left out: the dropouts (the identity at evaluation), the Linear layers' biases (zero-initialised by the skeleton's
_init_weights; the contract has none), the returned attention map (attn_save), float32 arithmetic. Added for the
contract only: n_embd is X.shape[-1], n_head is num_heads, block_size is main.py's `--max_len` default 128 (train.py:
`GPTConfig(vocab_size, max_len, ...)`); Q_proj, K_proj, V_proj and proj hold W_Q, W_K, W_V and W_O (x @ W for the
Linear's x @ weight.T), each loaded with load_state_dict's size check (a weight other than (D, D) raises); `mask` is
never read.
"""

import math

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
        self.Q_proj = _load(W_Q, (n_embd, n_embd))
        self.K_proj = _load(W_K, (n_embd, n_embd))
        self.V_proj = _load(W_V, (n_embd, n_embd))
        self.proj = _load(W_O, (n_embd, n_embd))
        self.mask = np.tril(np.ones((block_size, block_size))).reshape(1, 1, block_size, block_size)
        self.n_head = n_head

    def forward(self, x):
        B, L, C = x.shape

        Q = x @ self.Q_proj
        K = x @ self.K_proj
        V = x @ self.V_proj

        Q = np.swapaxes(Q.reshape(B, L, self.n_head, C // self.n_head), 1, 2)
        K = np.swapaxes(K.reshape(B, L, self.n_head, C // self.n_head), 1, 2)
        V = np.swapaxes(V.reshape(B, L, self.n_head, C // self.n_head), 1, 2)

        att = (Q @ np.swapaxes(K, -2, -1)) * (1.0 / math.sqrt(K.shape[-1]))

        att = np.where(self.mask[:, :, :L, :L] == 0, -np.inf, att)  # masked_fill, out of place
        att = _softmax(att, axis=-1)

        y = att @ V
        y = np.swapaxes(y, 1, 2).reshape(B, L, C)

        return y @ self.proj


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    block = _CSABlock(X.shape[-1], num_heads, BLOCK_SIZE, W_Q, W_K, W_V, W_O)
    return block.forward(X)
