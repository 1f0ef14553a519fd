"""Port of JerryFishY/eecs498, A5/transformers.py: scaled_dot_product_no_loop_batch, get_subsequent_mask,
SelfAttention and MultiHeadAttention (UMich EECS 498-007 A5, a student's solution).

Conventions kept: `_, _, M = query.shape` (3-D (N, K, M) input only), scores
torch.bmm(query, key.permute(0, 2, 1)) / sqrt(M); the course's mask convention True = MASKED, applied
by boolean-index assignment `attention[mask] = -1e9` (finite, and the mask must have the scores' own
shape (N, K, K): a broadcastable one raises IndexError); softmax on dim=2; get_subsequent_mask fills a
(K, K) boolean matrix in two loops with True where i < j (masked above the diagonal, square, from the
sequence length alone); MultiHeadAttention runs num_heads separate SelfAttention heads on the same
query, key, value and mask, concatenates them on dim=2 and applies the output Linear. The student's
softmax is F.softmax (not ported). Added for the contract only: (out, weights) is returned; causal_mask
takes (n_q, n_k) and ignores n_k, as the student's function only knows the sequence length, and drops
the student's batch axis (the course's mask is (N, K, K)); head h reads the contract's column blocks h of
W_Q/W_K (width d_k) and W_V (width d_v) (the student's per-head Linear layers, no biases); the `scale`
argument does not exist in the student's function.
"""

import numpy as np


def causal_mask(n_q, n_k=None):
    K = n_q
    mask = np.zeros((K, K), dtype=bool)
    for i in range(K):
        for j in range(K):
            if i < j:
                mask[i, j] = True
    return mask


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    _, _, M = Q.shape
    if mask is not None:
        attention = np.matmul(Q, K.transpose(0, 2, 1)) / np.sqrt(M)
        attention[mask] = -1e9
        weights_softmax = softmax(attention, axis=2)  # noqa: F821 - the submission's softmax (the reference's stands in for F.softmax)
        y = np.matmul(weights_softmax, V)
    else:
        weights_softmax = softmax(np.matmul(Q, K.transpose(0, 2, 1)) / np.sqrt(M), axis=2)  # noqa: F821 - as above
        y = np.matmul(weights_softmax, V)
    return y, weights_softmax


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_k, d_v = W_Q.shape[-1] // num_heads, W_V.shape[-1] // num_heads
    hidden = []
    for h in range(num_heads):
        q = X @ W_Q[:, h * d_k:(h + 1) * d_k]
        k = X @ W_K[:, h * d_k:(h + 1) * d_k]
        v = X @ W_V[:, h * d_v:(h + 1) * d_v]
        y, _ = scaled_dot_product_attention(q, k, v, mask)
        hidden.append(y)
    return np.concatenate(hidden, axis=2) @ W_O
