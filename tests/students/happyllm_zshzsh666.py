"""Port of ZSHzsh666/happy-llm-learning, code/chapter2-transformer/transformer_components.py (commit 5041b68):
attention and MultiHeadAttention, a learner's own chapter-2 code for Datawhale's Happy-LLM (an open online book
and course, "从零开始的大语言模型原理与实践教程"; chapter 2 builds the Transformer's attention, multi-head attention
and masks).

Ports scaled_dot_product_attention (the module-level attention()) and multi_head_attention (MultiHeadAttention, which
calls it).

Conventions kept: attention(query, key, value, mask=None, dropout=None) reads `d_k = query.size(-1)`, computes
`scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(d_k)` (no scale argument), then `if mask is not None:
scores = scores.masked_fill(mask == 0, -1e9)` (True = may attend; a FINITE fill: a fully masked row becomes uniform;
out of place, so mask and scores broadcast), `p_attn = F.softmax(scores, dim=-1)` and returns `torch.matmul(p_attn,
value), p_attn`. MultiHeadAttention(d_model=512, n_heads=8, dropout=0.1, is_causal=False, max_seq_len=1024) asserts
`d_model % n_heads == 0`, sets `self.d_k = d_model // n_heads` and `nn.Linear(d_model, d_model)` for wq, wk, wv and
wo; with is_causal it registers `mask = torch.triu(torch.full((1, 1, max_seq_len, max_seq_len), float("-inf")),
diagonal=1)`. forward(query, key, value) has no mask argument: `batch_size = query.size(0)`,
`self.wq(query).view(batch_size, -1, self.n_heads, self.d_k).transpose(1, 2)` (likewise K and V), and if is_causal
`mask = self.mask[:, :, :seq_len, :seq_len] == float("-inf")` with `seq_len = query.size(1)` (True on the FUTURE keys)
passed to attention(), whose `masked_fill(mask == 0, -1e9)` then masks every key that is NOT in the future: each query
attends only to the keys after it, and the last query, with no such key, gets uniform weights; then
`x.transpose(1, 2).contiguous().view(batch_size, -1, self.d_model)` and `self.wo(x)`.

Left out: dropout (the identity at evaluation) and the Linear layers' biases (the contract has none). Added for the
contract only: scaled_dot_product_attention takes a `scale` parameter (never read); multi_head_attention is
MultiHeadAttention(d_model=X.shape[-1], n_heads=num_heads) run as self-attention (query = key = value = X), its wq, wk,
wv and wo are W_Q, W_K, W_V and W_O (x @ W); the student's layer has no mask argument, so, as for the course's
encoder and decoder, a contract call with a mask runs the causal (decoder, is_causal=True) layer (the mask's entries
are never read) and one without a mask the encoder's (is_causal=False).
"""

import math

import numpy as np

MAX_SEQ_LEN = 1024  # MultiHeadAttention(..., max_seq_len=1024)


def _softmax_last(Z):  # F.softmax(scores, dim=-1)
    E = np.exp(Z - np.max(Z, axis=-1, keepdims=True))
    return E / np.sum(E, axis=-1, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    d_k = Q.shape[-1]
    scores = np.matmul(Q, np.swapaxes(K, -2, -1)) / math.sqrt(d_k)
    if mask is not None:
        scores = np.where(np.asarray(mask) == 0, -1e9, scores)  # masked_fill (out of place)
    p_attn = _softmax_last(scores)
    return np.matmul(p_attn, V), p_attn


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model, n_heads = X.shape[-1], num_heads
    assert d_model % n_heads == 0, "d_model 必须能被 n_heads 整除"
    d_k = d_model // n_heads
    is_causal = mask is not None
    query = key = value = X

    batch_size = query.shape[0]

    def split(M):  # .view(batch_size, -1, self.n_heads, self.d_k).transpose(1, 2)
        return np.swapaxes(M.reshape(batch_size, -1, n_heads, d_k), 1, 2)

    Q = split(query @ W_Q)
    K = split(key @ W_K)
    V = split(value @ W_V)

    if is_causal:
        seq_len = query.shape[1]
        buffer = np.triu(np.full((1, 1, MAX_SEQ_LEN, MAX_SEQ_LEN), -np.inf), k=1)
        causal = buffer[:, :, :seq_len, :seq_len] == -np.inf
        x, _ = scaled_dot_product_attention(Q, K, V, mask=causal)
    else:
        x, _ = scaled_dot_product_attention(Q, K, V)

    x = np.swapaxes(x, 1, 2).reshape(batch_size, -1, d_model)
    return x @ W_O
