"""Port of dal548/305BFinal, hw4.ipynb (commit 378e2c2, "Finished part 1 (finally)"): Head, MultiHeadAttention and
TransformerBlock, a pair of students' (EashanM and JaneAISol; the homework allows pairs) solution (winter 2025) of
Stanford STATS 305B (Models and Algorithms for Discrete Data, Scott Linderman), homework 4 "Large Language Models",
part 1: a character-level transformer LM on tiny Shakespeare built in the course's notebook (slinderman/stats305b,
assignments/hw4/hw4.ipynb), where the students fill in Head.forward, MultiHeadAttention and the layers of
TransformerBlock.

Ports multi_head_attention (MultiHeadAttention as the students' TransformerBlock builds it).

Conventions kept: the course's Head(head_size, context_window_size, embed_size=384) has `self.key` and `self.query`
`nn.Linear(embed_size, head_size, bias=False)` and `self.value = nn.Linear(embed_size, embed_size, bias=False)` (the
course's single-head formula softmax(CausalMask(X U_q^T U_k X^T) / sqrt(K)) (X V^T) with V in R^{D x D}: every head's
values are as wide as the input) and the buffer `tril(ones(context_window_size, context_window_size))`; the students'
forward reads `B, T, _ = x.shape` (3-D input only), computes `attn_scores = query@key.transpose(-2, -1)`, `causal_mask
= self.tril[:T, :T][None, :, :]` (cut from the buffer: more tokens than context_window_size raise against the scores),
`attn_scores.masked_fill(causal_mask == 0, float('-inf'))` (out of place), `torch.softmax(attn_scores / (K ** 0.5),
dim=-1)` with `K = self.head_size` and returns `attn_weights@value`. MultiHeadAttention(context_window_size, num_heads,
head_size, embed_size=384): `self.heads = nn.ModuleList([Head(head_size, context_window_size, embed_size) for _ in
range(num_heads)])` and `self.lm_head = nn.Linear(embed_size*num_heads, embed_size)`; forward(x) (no mask argument:
always causal) reads `B, T, _ = x.shape`, `torch.cat(head_outputs, dim=-1)`, `head_outputs.view(B, T, -1)` and returns
`self.lm_head(head_outputs)`. TransformerBlock builds it as `MultiHeadAttention(context_window_size, num_heads,
embed_size // num_heads, embed_size)` (heads of D // H columns for the keys and queries).

Left out: lm_head's bias (zero here: the contract has none), an unused `head_size = x.shape[-1] // self.num_heads` in
MultiHeadAttention.forward, float32 arithmetic. Added for the contract only: embed_size is X.shape[-1], head_size is
embed_size // num_heads (the students' TransformerBlock), context_window_size is the notebook's CONTEXT_WINDOW_SIZE =
256; head h's key and query are columns [h*s, (h+1)*s) of W_K and W_Q (s = head_size) and its value columns [h*D,
(h+1)*D) of W_V, lm_head's weight is W_O (x @ W for the Linear's x @ weight.T), each loaded with load_state_dict's size
check (a key or query slice other than (D, s), a value slice other than (D, D) or a W_O other than (H*D, D) raises);
`mask` is never read.
"""

import numpy as np

CONTEXT_WINDOW_SIZE = 256  # the notebook's global, passed to every model as context_window_size


def _load(W, shape):  # load_state_dict: a parameter of another shape is a size mismatch
    if W.shape != shape:
        raise RuntimeError(f"size mismatch: copying a param with shape {W.shape}, the current shape is {shape}")
    return W


def _softmax(A, axis):  # torch.softmax
    E = np.exp(A - np.max(A, axis=axis, keepdims=True))
    return E / np.sum(E, axis=axis, keepdims=True)


class _Head:
    def __init__(self, head_size, context_window_size, embed_size, key, query, value):
        self.head_size = head_size
        self.key = _load(key, (embed_size, head_size))
        self.query = _load(query, (embed_size, head_size))
        self.value = _load(value, (embed_size, embed_size))
        self.tril = np.tril(np.ones((context_window_size, context_window_size)))

    def forward(self, x):
        _B, T, _ = x.shape
        K = self.head_size
        key = x @ self.key
        query = x @ self.query
        value = x @ self.value

        attn_scores = query @ np.swapaxes(key, -2, -1)
        causal_mask = self.tril[:T, :T][None, :, :]
        attn_scores = np.where(causal_mask == 0, -np.inf, attn_scores)  # masked_fill, out of place
        attn_weights = _softmax(attn_scores / (K ** 0.5), axis=-1)
        return attn_weights @ value


class _MultiHeadAttention:
    def __init__(self, context_window_size, num_heads, head_size, embed_size, W_Q, W_K, W_V, W_O):
        s, D = head_size, embed_size
        self.heads = [_Head(head_size, context_window_size, embed_size, W_K[:, h * s:(h + 1) * s],
                            W_Q[:, h * s:(h + 1) * s], W_V[:, h * D:(h + 1) * D]) for h in range(num_heads)]
        self.lm_head = _load(W_O, (embed_size * num_heads, embed_size))
        self.num_heads = num_heads

    def forward(self, x):
        B, T, _ = x.shape
        head_outputs = [head.forward(x) for head in self.heads]
        head_outputs = np.concatenate(head_outputs, axis=-1)
        head_outputs = head_outputs.reshape(B, T, -1)
        return head_outputs @ self.lm_head


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    embed_size = X.shape[-1]
    atten_heads = _MultiHeadAttention(CONTEXT_WINDOW_SIZE, num_heads, embed_size // num_heads, embed_size,
                                      W_Q, W_K, W_V, W_O)  # TransformerBlock's construction
    return atten_heads.forward(X)
