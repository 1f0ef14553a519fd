"""Port of mrsun-97/ECE60146-homework, hw9_YuxinSun/code.py (commit e8b5eba): SelfAttention2.forward, a student's own
multi-head self-attention with one einsum weight tensor (the homework's extra credit; the student's BasicEncoder
uses it in place of the course's SelfAttention) for Purdue ECE 60146 Deep Learning, homework 9 (a vision
transformer), spring 2023.

Ports multi_head_attention only. Conventions kept: the constructor sets `self.qkv_size = self.embedding_size //
num_atten_heads` (D // H, D = X.shape[-1]) and `self.wqkv_tensor = nn.Parameter(torch.randn(num_atten_heads, 3,
max_seq_length, self.qkv_size, max_seq_length, self.qkv_size))` (per head, a map from the head's slice of every
token to its q, k or v at every token) and `self.coeff = 1.0/torch.sqrt(torch.tensor(self.qkv_size).float())`;
forward reads `b, s, d = sentence_tensor.shape` (3-D input only), `x = sentence_tensor.view(b, s,
self.num_atten_heads, self.qkv_size)` (head h gets only the INPUT columns [h*qkv, (h+1)*qkv)), `q, k, v =
tuple(torch.einsum('bshq,hksqSQ->kbhSQ', x, self.wqkv_tensor))`, `QK_dot_prod = torch.einsum('bhiq,bhjq->bhij', q,
k)` (unscaled), `torch.softmax(QK_dot_prod, dim=-1)`, `z = torch.einsum('bhsj,bhjq->bshq', ..., v)` and returns `z =
self.coeff * z.reshape(b,s,d)` (the scale multiplies the output, after the softmax; no output projection). There is
no mask argument.

Left out: `.to(device)`. Added for the contract only: max_seq_length is the number of tokens N = X.shape[-2]; the
weight tensor holds the contract's per-token projections restricted to each head's input slice,
wqkv_tensor[h, k, s, :, s, :] = W[h*qkv:(h+1)*qkv, h*d:(h+1)*d] for W = W_Q, W_K, W_V (k = 0, 1, 2) and zero across
tokens (the rest of the head's columns is never read; a block of another shape cannot fill the tensor and the
assignment raises); the mask is accepted and never read; W_O is accepted and never used.
"""

import numpy as np


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    b, s, d = X.shape
    max_seq_length = s
    qkv_size = d // num_heads
    wqkv_tensor = np.zeros((num_heads, 3, max_seq_length, qkv_size, max_seq_length, qkv_size))
    for h in range(num_heads):
        for k, W in enumerate((W_Q, W_K, W_V)):
            width = W.shape[-1] // num_heads
            for t in range(max_seq_length):
                wqkv_tensor[h, k, t, :, t, :] = W[h * qkv_size:(h + 1) * qkv_size, h * width:(h + 1) * width]
    coeff = 1.0 / np.sqrt(float(qkv_size))
    x = X.reshape(b, s, num_heads, qkv_size)
    q, k, v = np.einsum("bshq,hksqSQ->kbhSQ", x, wqkv_tensor)
    QK_dot_prod = np.einsum("bhiq,bhjq->bhij", q, k)
    E = np.exp(QK_dot_prod - np.max(QK_dot_prod, axis=-1, keepdims=True))
    rowwise_softmax_normalizations = E / np.sum(E, axis=-1, keepdims=True)
    z = np.einsum("bhsj,bhjq->bshq", rowwise_softmax_normalizations, v)
    return coeff * z.reshape(b, s, d)
