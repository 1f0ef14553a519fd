"""Port of kellman/deepul, homeworks/hw1/masked_gpt.py (commit 1f10e27): masked_attention and
MaskedMultiHeadAttention.forward, a student's solution of UC Berkeley CS 294-158 (Deep Unsupervised Learning), homework
1 (autoregressive models: the causal Transformer, iGPT, on binary shapes and MNIST).

Ports scaled_dot_product_attention (masked_attention) and multi_head_attention (MaskedMultiHeadAttention).

Conventions kept: `def masked_attention(q, k, v, mask)` (the mask is required, no scale argument) computes `score =
torch.matmul(q, k.transpose(-2, -1)) / torch.sqrt(torch.tensor(q.shape[-1], dtype=torch.float32))` (1/sqrt(d_k)),
`score.masked_fill(mask == 0, float('-inf'))` (True = may attend; out of place, so mask and scores broadcast; with no
mask, `None == 0` is the Python bool False, which masked_fill refuses with a TypeError), `torch.softmax(score,
dim=-1)` (an all -inf row is NaN) and returns `torch.matmul(attn_weights, v)` only. MaskedMultiHeadAttention(d_model,
num_heads) asserts `d_model % num_heads == 0`, sets `self.d_head = d_model // num_heads` and builds `nn.Linear(d_model,
d_model)` for q_linear, k_linear, v_linear and out_linear; forward(x, mask) reads `batch_size, seq_len, _ = x.size()`
(3-D input only), splits each projection with `.view(batch_size, seq_len, self.num_heads, self.d_head).transpose(1, 2)`
(H * (D // H) columns: it raises unless the projections are that wide), calls `masked_attention(q, k, v, mask)` with
the mask as given (a per-sequence (B, N, N) mask meets the (B, H, N, N) scores' head axis), and merges with
`.transpose(1, 2).contiguous().view(batch_size, seq_len, self.d_model)` before out_linear. Left out: the Linear
layers' biases; the GPT around them (which passes its whole (max_seq_len + 1)-square tril buffer as the mask). Added
for the contract only: scaled_dot_product_attention takes a `scale` parameter (never read) and returns (out, weights),
the weights being the student's attn_weights; d_model is X.shape[-1] (the constructor's argument), and W_Q, W_K, W_V
and W_O are q_linear, k_linear, v_linear and out_linear.
"""

import numpy as np


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    q, k, v = Q, K, V
    score = np.matmul(q, np.swapaxes(k, -2, -1)) / np.sqrt(np.float32(q.shape[-1]))
    if mask is None:  # score.masked_fill(None == 0, ...): a bool where masked_fill wants a tensor
        raise TypeError("masked_fill() received an invalid combination of arguments - got (bool, float)")
    score = np.where(np.asarray(mask) == 0, -np.inf, score)  # masked_fill(mask == 0, -inf), out of place
    with np.errstate(invalid="ignore"):  # torch.softmax: an all -inf row gives -inf - (-inf) = NaN
        e = np.exp(score - np.max(score, axis=-1, keepdims=True))
        attn_weights = e / np.sum(e, axis=-1, keepdims=True)
    output = np.matmul(attn_weights, v)
    return output, attn_weights


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]
    assert d_model % num_heads == 0
    d_head = d_model // num_heads
    x = X
    batch_size, seq_len, _ = x.shape
    q = (x @ W_Q).reshape(batch_size, seq_len, num_heads, d_head).swapaxes(1, 2)
    k = (x @ W_K).reshape(batch_size, seq_len, num_heads, d_head).swapaxes(1, 2)
    v = (x @ W_V).reshape(batch_size, seq_len, num_heads, d_head).swapaxes(1, 2)
    attn_output, _ = scaled_dot_product_attention(q, k, v, mask)
    attn_output = attn_output.swapaxes(1, 2).reshape(batch_size, seq_len, d_model)
    return attn_output @ W_O
