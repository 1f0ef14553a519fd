"""Port of Md-sa0/Lab-p1-04, transformer.py (commit 8e87749): scaled_dot_product_attention, MultiHeadAttention and
get_causal_mask, a student's solution of iCEV (Instituto de Ensino Superior iCEV, Teresina, Brazil) "Tópicos em
Inteligência Artificial" 2026.1, Lab P1-04 "O Transformer Completo From Scratch" (in PyTorch).

Ports scaled_dot_product_attention, multi_head_attention and causal_mask. Conventions kept:
scaled_dot_product_attention(Q, K, V, mask=None): `d_k = Q.size(-1)`, `torch.matmul(Q, K.transpose(-2, -1)) /
math.sqrt(d_k)` (no scale argument), `scores.masked_fill(mask == 0, float('-inf'))` (True = may attend; out of place,
so mask and scores broadcast together), `F.softmax(scores, dim=-1)` (an all -inf row gives NaN), returns `(output,
attention_weights)`; MultiHeadAttention(d_model, num_heads): `self.d_k = d_model // num_heads` for queries, keys AND
values, forward reads `batch_size = q.size(0)` and views each projection as `.view(batch_size, -1, self.num_heads,
self.d_k).transpose(1, 2)` (a 2-D input's tokens are read as the batch), gives the mask its axes with `if mask.dim()
== 2: mask = mask.unsqueeze(0).unsqueeze(0)` / `elif mask.dim() == 3: mask = mask.unsqueeze(1)`, calls its
scaled_dot_product_attention, merges with `.transpose(1, 2).contiguous().view(batch_size, -1, self.num_heads *
self.d_k)` and returns `self.W_o(attn_output)`; get_causal_mask(seq_len): `torch.tril(torch.ones(seq_len,
seq_len)).type(torch.bool)` (square).

Left out: the nn.Linear layers' biases (the contract has none). Added for the contract only: a `scale` parameter
never read (so the contract's calls reach the student's code); causal_mask(n_q, n_k) calls get_causal_mask(n_q) (n_k
unused); the constructor gets d_model = X.shape[-1], and the layers W_q, W_k, W_v and W_o multiply by W_Q, W_K, W_V
and W_O (self-attention: q = k = v = X). torch's view raises where numpy's reshape would too (a size that does not
divide).
"""

import numpy as np


def _softmax_last(x):  # F.softmax(dim=-1): an all -inf row gives -inf - (-inf) = NaN
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    d_k = Q.shape[-1]
    scores = np.matmul(Q, np.swapaxes(K, -2, -1)) / np.sqrt(d_k)
    if mask is not None:
        scores = np.where(np.asarray(mask) == 0, -np.inf, scores)  # out-of-place masked_fill broadcasts both
    attention_weights = _softmax_last(scores)
    output = np.matmul(attention_weights, V)
    return output, attention_weights


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    q = k = v = X
    d_k = X.shape[-1] // num_heads
    batch_size = q.shape[0]
    Q = np.swapaxes((q @ W_Q).reshape(batch_size, -1, num_heads, d_k), 1, 2)
    K = np.swapaxes((k @ W_K).reshape(batch_size, -1, num_heads, d_k), 1, 2)
    V = np.swapaxes((v @ W_V).reshape(batch_size, -1, num_heads, d_k), 1, 2)
    if mask is not None:
        mask = np.asarray(mask)
        if mask.ndim == 2:
            mask = mask[None, None]
        elif mask.ndim == 3:
            mask = mask[:, None]
    attn_output, _ = scaled_dot_product_attention(Q, K, V, mask)
    attn_output = np.swapaxes(attn_output, 1, 2).reshape(batch_size, -1, num_heads * d_k)
    return attn_output @ W_O


def causal_mask(n_q, n_k=None):
    seq_len = n_q
    return np.tril(np.ones((seq_len, seq_len))).astype(bool)
