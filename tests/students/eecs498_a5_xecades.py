"""Port of Xecades/EECS498-007, A5/transformers.py: scaled_dot_product_no_loop_batch, get_subsequent_mask,
SelfAttention and MultiHeadAttention (UMich EECS 498-007 A5, a student's solution).

Conventions kept: `_, _, M = query.shape` (3-D (N, K, M) input only), scores
query @ key.transpose(1, 2) / sqrt(M), the course's mask convention True = MASKED with
masked_fill(mask, -1e9), softmax on dim=2 (the last axis of a 3-D input); get_subsequent_mask builds
(1 - tril(ones(K, K))).bool() from the sequence length alone (True above the diagonal = masked, square);
MultiHeadAttention runs num_heads separate SelfAttention heads whose query/key/value width is
dim_out = emb_dim // num_heads (EncoderBlock's choice), on the same mask, concatenates them on the last
axis and applies the output Linear. Added for the contract only: causal_mask takes (n_q, n_k) and
ignores n_k, as the student's function only knows the sequence length; head h reads the contract's
column block h of W_Q/W_K/W_V (the student's per-head Linear layers, no biases); the `scale` argument
does not exist in the student's function.
"""

import numpy as np


def causal_mask(n_q, n_k=None):
    return (1 - np.tril(np.ones((n_q, n_q)))).astype(bool)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    _, _, M = Q.shape
    E = Q @ np.swapaxes(K, 1, 2) / np.sqrt(M)
    if mask is not None:
        E = np.where(mask, -1e9, E)
    E = np.exp(E - E.max(axis=2, keepdims=True))
    A = E / E.sum(axis=2, keepdims=True)
    return A @ V, A


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    dim_out = X.shape[-1] // num_heads
    head_outputs = []
    for h in range(num_heads):
        cols = slice(h * dim_out, (h + 1) * dim_out)
        y, _ = scaled_dot_product_attention(X @ W_Q[:, cols], X @ W_K[:, cols], X @ W_V[:, cols], mask)
        head_outputs.append(y)
    return np.concatenate(head_outputs, axis=-1) @ W_O
