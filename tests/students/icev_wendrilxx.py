"""Port of WendrilXX/O-Transformer-Completo-From-Scratch-, lab04_transformer_completo.py (commit 4665f5a):
scaled_dot_product_attention, softmax_estavel, create_causal_mask and MultiHeadAttention, a student's solution of iCEV
(Instituto de Ensino Superior iCEV, Teresina, Brazil) "Tópicos em Inteligência Artificial" 2026.1, Lab P1-04 "O
Transformer Completo From Scratch" (numpy).

Ports softmax (the student's softmax_estavel), causal_mask, scaled_dot_product_attention and multi_head_attention.
Conventions kept: softmax_estavel(x, axis=-1): `exp_x = np.exp(x - x_max)`, then `exp_x[np.isinf(x) & (x < 0)] = 0`,
`exp_x / soma` (no temperature; an all -inf slice has x_max = -inf, its entries are set to 0 and 0 / 0 = NaN);
scaled_dot_product_attention(query, key, value, mask=None): `np.matmul(query, key.transpose(0, 2, 1))` (3-D inputs
only: a 2-D or 4-D key raises), `/ np.sqrt(d_k)` with `d_k = key.shape[-1]` (no scale argument), `scaled_scores +
mask` (additive: a boolean mask adds 0/1 and blocks nothing), softmax_estavel(..., axis=-1), returns `(output,
attention_weights)`; create_causal_mask(seq_len): zeros with `mask[np.triu_indices_from(mask, k=1)] = -np.inf`
(additive float, square); MultiHeadAttention(d_model, num_heads): `assert d_model % num_heads == 0`, `self.d_k =
d_model // num_heads` for queries, keys AND values, forward reads `batch_size = Q.shape[0]`, `Q_proj.reshape(
batch_size, -1, self.num_heads, self.d_k)` and `.transpose(0, 2, 1, 3)` (likewise K and V), then for each head h the
3-D slices `Q_heads[:, h, :, :]` go to its scaled_dot_product_attention with the mask as given, `np.concatenate(
output_heads, axis=-1)` and `output_concat @ self.W_o`.

Left out: nothing else runs in these functions (the weights' random initialisation is replaced). Added for the
contract only: a `scale` parameter never read and softmax's `temperature` never read (so the contract's calls reach
the student's code); causal_mask(n_q, n_k) calls create_causal_mask(n_q) (n_k unused); the constructor gets d_model
= X.shape[-1], and self.W_q, self.W_k, self.W_v and self.W_o are W_Q, W_K, W_V and W_O (self-attention: Q = K = V =
X). The reference's decoding calls the student's attention on 2-D arrays, which its transpose(0, 2, 1) refuses.
"""

import numpy as np


def softmax(Z, axis=-1, temperature=1.0):
    x = Z
    x_max = np.max(x, axis=axis, keepdims=True)
    exp_x = np.exp(x - x_max)
    exp_x[np.isinf(x) & (x < 0)] = 0
    soma = np.sum(exp_x, axis=axis, keepdims=True)
    return exp_x / soma


def causal_mask(n_q, n_k=None):
    seq_len = n_q
    mask = np.zeros((seq_len, seq_len))
    mask[np.triu_indices_from(mask, k=1)] = -np.inf
    return mask


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    query, key, value = Q, K, V
    scores = np.matmul(query, key.transpose(0, 2, 1))
    d_k = key.shape[-1]
    scaling_factor = np.sqrt(d_k)
    scaled_scores = scores / scaling_factor
    if mask is not None:
        scaled_scores = scaled_scores + mask
    attention_weights = softmax(scaled_scores, axis=-1)
    output = np.matmul(attention_weights, value)
    return output, attention_weights


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]
    assert d_model % num_heads == 0, "d_model deve ser divisível por num_heads"
    d_k = d_model // num_heads
    Q = K = V = X
    batch_size = Q.shape[0]
    Q_proj = Q @ W_Q
    K_proj = K @ W_K
    V_proj = V @ W_V
    Q_heads = Q_proj.reshape(batch_size, -1, num_heads, d_k).transpose(0, 2, 1, 3)
    K_heads = K_proj.reshape(batch_size, -1, num_heads, d_k).transpose(0, 2, 1, 3)
    V_heads = V_proj.reshape(batch_size, -1, num_heads, d_k).transpose(0, 2, 1, 3)
    output_heads = []
    for h in range(num_heads):
        Q_h = Q_heads[:, h, :, :]
        K_h = K_heads[:, h, :, :]
        V_h = V_heads[:, h, :, :]
        attn_out, _ = scaled_dot_product_attention(Q_h, K_h, V_h, mask)
        output_heads.append(attn_out)
    output_concat = np.concatenate(output_heads, axis=-1)
    return output_concat @ W_O
