"""Port of dfarache3/Deep-Learning-60146, HW9/ViTHelper.py (commit 1d9e333): SelfAttention.forward with method=2
and AttentionHead_ExtraCredit.forward, a student's own einsum attention head (the homework's extra credit, written
into the course's ViTHelper) for Purdue ECE 60146 Deep Learning, homework 9 (a vision transformer), spring 2023.

Ports multi_head_attention only. Conventions kept: SelfAttention sets `self.qkv_size = self.embedding_size //
num_atten_heads` (D // H, D = X.shape[-1]) and builds one AttentionHead_ExtraCredit(max_seq_length, qkv_size) per
head; forward fills `torch.zeros(sentence_tensor.shape[0], self.max_seq_length, self.num_atten_heads *
self.qkv_size)` and gives head i only its slice of the INPUT, `sentence_tensor[:, :, i * self.qkv_size: (i+1) *
self.qkv_size]`, writing its output to the same columns. The head has `self.WQ = nn.Linear(max_seq_length *
self.qkv_size, max_seq_length * self.qkv_size)` (WK, WV alike) over the flattened slice,
`self.WQ(sentence_portion.reshape(sentence_portion.shape[0], -1))`, `Q.view(sentence_portion.shape[0],
self.max_seq_length, self.qkv_size)` (K, V alike; 3-D input only), `QK_DotProduct = torch.einsum("bqn, bnk -> bqk",
Q, rearrange(K, "b n e -> b e n"))`, `ScaleCoeff = 1.0 / torch.sqrt(torch.tensor([self.qkv_size]).float())` and
returns `ScaleCoeff * torch.einsum("ban, bne -> bae", self.softmax(QK_DotProduct), V)` with `self.softmax =
nn.Softmax(dim=1)` (on the (B, N_q, N_k) scores, axis 1 is the queries; the scale multiplies the output, after the
softmax). No output projection, no mask argument.

Left out: the Linear layers' biases (zero here), `.float()` (float32) and `.to(device)`. Added for the contract
only: max_seq_length is the number of tokens N = X.shape[-2]; head i's flattened nn.Linear(N*qkv, N*qkv) layers hold
the contract's per-token projections restricted to the head's input slice, kron(I_N, W_Q[i*qkv:(i+1)*qkv,
i*d_k:(i+1)*d_k]) (W_K, W_V alike: the rest of the head's columns is never read; a block of another shape cannot
fill the layer and the view raises); the mask is accepted and never read; W_O is accepted and never used.
"""

import numpy as np


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    embedding_size = X.shape[-1]
    max_seq_length = X.shape[-2]
    qkv_size = embedding_size // num_heads
    d_k, d_v = W_Q.shape[-1] // num_heads, W_V.shape[-1] // num_heads

    def head(i, sentence_portion):
        rows = slice(i * qkv_size, (i + 1) * qkv_size)
        WQ, WK, WV = (np.kron(np.eye(max_seq_length), W[rows, i * d:(i + 1) * d])
                      for W, d in ((W_Q, d_k), (W_K, d_k), (W_V, d_v)))
        flat = sentence_portion.reshape(sentence_portion.shape[0], -1)
        Q = (flat @ WQ).reshape(sentence_portion.shape[0], max_seq_length, qkv_size)
        K = (flat @ WK).reshape(sentence_portion.shape[0], max_seq_length, qkv_size)
        V = (flat @ WV).reshape(sentence_portion.shape[0], max_seq_length, qkv_size)
        QK_DotProduct = np.einsum("bqn,bnk->bqk", Q, np.swapaxes(K, 1, 2))
        E = np.exp(QK_DotProduct - np.max(QK_DotProduct, axis=1, keepdims=True))  # nn.Softmax(dim=1)
        weights = E / np.sum(E, axis=1, keepdims=True)
        ScaleCoeff = 1.0 / np.sqrt(qkv_size)
        return ScaleCoeff * np.einsum("ban,bne->bae", weights, V)

    concat_out_from_atten_heads = np.zeros((X.shape[0], max_seq_length, num_heads * qkv_size))
    for i in range(num_heads):
        sentence_tensor_portion = X[:, :, i * qkv_size:(i + 1) * qkv_size]
        concat_out_from_atten_heads[:, :, i * qkv_size:(i + 1) * qkv_size] = head(i, sentence_tensor_portion)
    return concat_out_from_atten_heads
