"""Port of akamsali/ECE60146-DeepLearning-HWs-2023, HW9/ViTHelper_einops.py (commit 0669782): SelfAttention.forward,
a student's own multi-head self-attention (the einops rewrite of the course's ViTHelper, the homework's extra credit)
for Purdue ECE 60146 Deep Learning, homework 9 (a vision transformer), spring 2023.

Ports multi_head_attention only. Conventions kept: the constructor sets `self.qkv_size = embedding_size //
num_atten_heads` (D // H, D = X.shape[-1]) and one fused `self.to_qvk = nn.Linear(self.max_seq_length *
self.embedding_size, 3 * self.max_seq_length * self.embedding_size)` over the whole flattened sequence; forward runs
`self.to_qvk(sentence_tensor.reshape(sentence_tensor.shape[0], -1))` (the first axis is the batch, the rest is
flattened: 3-D input only), then `Q, K, V = tuple(rearrange(QKV, "b (k l d h) -> k b h l d", k=3,
l=self.max_seq_length, d=self.qkv_size, h=self.num_atten_heads))` (each token's D columns are read as (d, h): head h
takes every H-th column), `QK_dot_prod = torch.einsum("b h i d , b h j d -> b h i j", Q, K)`, `attn =
self.softmax(QK_dot_prod)` with nn.Softmax(dim=-1) (unscaled scores), `Z = torch.einsum("b h i j , b h j d -> b h i
d", attn, V) / torch.sqrt(torch.tensor([self.qkv_size]).float())` (the scale divides the OUTPUT, after the softmax),
and returns `rearrange(Z, "b h l d -> b l (h d)")` (no output projection). There is no mask argument.

Left out: the Linear layer's bias (zero here), `.float()` (float32) and `.to(device)`. Added for the contract only:
max_seq_length is the number of tokens N = X.shape[-2]; the course's flattened nn.Linear(N*D, 3*N*D) holds the
contract's per-token projections, [kron(I_N, W_Q) | kron(I_N, W_K) | kron(I_N, W_V)] (token n's outputs are x_n @ W,
block n of each third; a projection of another width than D cannot fill it and raises); the mask is accepted and never
read; W_O is accepted and never used.
"""

import numpy as np


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    embedding_size = X.shape[-1]
    max_seq_length = X.shape[-2]
    qkv_size = embedding_size // num_heads
    if any(W.shape[-1] != embedding_size for W in (W_Q, W_K, W_V)):  # nn.Linear(N*D, 3*N*D) cannot hold them
        raise RuntimeError("size mismatch for to_qvk.weight: each projection must be D wide")
    to_qvk = np.concatenate([np.kron(np.eye(max_seq_length), W) for W in (W_Q, W_K, W_V)], axis=1)
    QKV = X.reshape(X.shape[0], -1) @ to_qvk  # raises unless the flattened width is N*D
    b = QKV.shape[0]
    if QKV.shape[1] != 3 * max_seq_length * qkv_size * num_heads:  # einops: "(k l d h)" must match exactly
        raise ValueError(f"Shape mismatch, can't divide axis of length {QKV.shape[1]} in chunks of "
                         f"{3 * max_seq_length * qkv_size * num_heads}")
    QKV = QKV.reshape(b, 3, max_seq_length, qkv_size, num_heads)  # b (k l d h)
    Q, K, V = np.transpose(QKV, (1, 0, 4, 2, 3))  # k b h l d
    QK_dot_prod = np.einsum("bhid,bhjd->bhij", Q, K)
    E = np.exp(QK_dot_prod - np.max(QK_dot_prod, axis=-1, keepdims=True))
    attn = E / np.sum(E, axis=-1, keepdims=True)
    Z = np.einsum("bhij,bhjd->bhid", attn, V) / np.sqrt(qkv_size)
    Z = np.transpose(Z, (0, 2, 1, 3))  # b l h d
    return Z.reshape(b, max_seq_length, num_heads * qkv_size)  # b l (h d)
