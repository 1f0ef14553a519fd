"""Port of mfbosco/advanced-deep-learning-llms, 05-GPT-2/mascara_causal_gpt_2.ipynb (commit 53f5fbf): AttentionHead and
MultiHeadAttention, a student's solution (2nd semester 2025) of Unicamp's IA368HH (FEEC, "Aprendizado Profundo
Avançado: LLMs e Agentes Inteligentes na Prática", the 2025 offering of the IA024 course: the same sequence of
exercises), the exercise on causal masks (GPT-2: a decoder-only language model trained on Machado de Assis with the
students' own masked multi-head self-attention).

Ports multi_head_attention (MultiHeadAttention.forward over its AttentionHeads).

Conventions kept: the notebook's TransformerBlock builds `MultiHeadAttention(num_heads, head_size, embed_dim)` with
`head_size = embed_dim // num_heads`, whose num_heads `AttentionHead(d_model, head_size)` each have wq, wk AND wv
`nn.Linear(d_model, head_size, bias=False)` (the values' heads are head_size wide too) and a buffer `self.tril =
torch.tril(torch.ones(context_size, context_size))` with the notebook's global `context_size = 9`; AttentionHead.forward
(x, mask=None) reads `B, S, C = x.shape` ("batch size, sequence length, embedding dimension": 3-D input only), computes
`weights = Q @ K.transpose(-2, -1) / math.sqrt(C)` (scaled by the model width C, not the head's), `weights.masked_fill(
self.tril[:S, :S] == 0, float("-inf"))` (always causal: its `mask` argument is never read, and more than 9 tokens
raise), `F.softmax(weights, dim=-1)`, `out = weights @ V`; MultiHeadAttention.forward(x) (no mask argument)
concatenates the heads on the last axis and applies `self.projection = nn.Linear(d_model, d_model)`.

Not ported: the SelfAttentionMatrix of the previous exercise (03-attention/auto_atenção.ipynb), a separate layer. Left
out: dropout (off at evaluation), the projection's bias (zero here: the contract has none). Added for the contract
only: d_model and embed_dim are X.shape[-1] (head_size as the TransformerBlock computes it), head h's wq, wk and wv are
columns [h * head_size, (h + 1) * head_size) of W_Q, W_K and W_V, projection is W_O (x @ W_O for the Linear's x @
weight.T), and the contract's `mask` is never read.
"""

import math

import numpy as np

CONTEXT_SIZE = 9  # the notebook's global context_size, the size of each head's tril buffer


def _softmax(x, axis):  # F.softmax
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    embed_dim = X.shape[-1]
    head_size = embed_dim // num_heads  # TransformerBlock: head_size = embed_dim // num_heads
    tril = np.tril(np.ones((CONTEXT_SIZE, CONTEXT_SIZE)))

    def head(h):
        cols = slice(h * head_size, (h + 1) * head_size)
        _B, S, C = X.shape
        Q = X @ W_Q[:, cols]
        K = X @ W_K[:, cols]
        V = X @ W_V[:, cols]
        weights = Q @ np.swapaxes(K, -2, -1) / math.sqrt(C)
        weights = np.where(tril[:S, :S] == 0, -np.inf, weights)  # masked_fill, out of place
        weights = _softmax(weights, axis=-1)
        return weights @ V

    outputs = np.concatenate([head(h) for h in range(num_heads)], axis=-1)
    return outputs @ W_O
