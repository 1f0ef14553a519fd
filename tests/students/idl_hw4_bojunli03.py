"""Port of BojunLi03/11485-HW4, mytorch/nn/activation.py (Softmax), mytorch/nn/scaled_dot_product_attention.py and
mytorch/nn/multi_head_attention.py (CMU 11-485/785 HW4P1, a student's numpy solution).

Conventions kept: Softmax(dim) checks the axis, then computes exp(Z) / sum(exp(Z)) WITHOUT subtracting
the max (large logits overflow to inf / inf = NaN; an all -inf slice is 0 / 0 = NaN), no temperature;
attention scales by 1/sqrt(Q.shape[-1]) (no scale argument), follows the course's mask convention True =
IGNORE and SUBTRACTS eps = 1e10 from the ignored scores (`np.where(mask, scores - self.eps, scores)`),
then the student's Softmax(dim=-1); multi-head attention reads N = query.shape[0], L = query.shape[1]
(batch-first 3-D input), splits heads with reshape(N, L, num_heads, embed_dim // num_heads) (the model
width over the heads) for q, k and v, merges the masks by expanding key_padding_mask to (N, 1, 1, S) and
attn_mask to (1, 1, L, S) (a per-sequence mask gets no head axis) and OR-ing them, and concatenates the
heads with reshape(N, L, embed_dim). Added for the contract only: (out, weights) is returned; the weight
matrices replace the Linear layers (no biases); embed_dim is X.shape[-1] (the constructor's argument);
the contract's mask is passed as the student's attn_mask and key_padding_mask is all False (no padding).
"""

import numpy as np

EPS = 1e10  # the course's "DO NOT MODIFY" constant


def softmax(Z, axis=-1, temperature=1.0):
    if axis > len(Z.shape) or axis < -len(Z.shape):
        raise ValueError("Dimension to apply softmax to is greater than the number of dimensions in Z")
    A = np.exp(Z)
    A /= np.sum(A, axis=axis, keepdims=True)
    return A


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    scaled_dot_product = Q @ np.moveaxis(K, -2, -1) / np.sqrt(Q.shape[-1])
    if mask is not None:
        scaled_dot_product = np.where(mask, scaled_dot_product - EPS, scaled_dot_product)
    attention_scores = softmax(scaled_dot_product, axis=-1)
    return attention_scores @ V, attention_scores


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    N, L, S = X.shape[0], X.shape[1], X.shape[1]
    embed_dim = X.shape[-1]

    def split_heads(x):
        x = x.reshape(N, L, num_heads, embed_dim // num_heads)
        return np.transpose(x, (0, 2, 1, 3))

    q, k, v = split_heads(X @ W_Q), split_heads(X @ W_K), split_heads(X @ W_V)
    key_padding_mask = np.zeros((N, S), dtype=bool)
    key_mask = np.expand_dims(np.expand_dims(key_padding_mask, axis=1), axis=1)
    attention_mask = np.expand_dims(np.expand_dims(mask, axis=0), axis=0)
    combined_mask = np.logical_or(key_mask, attention_mask)
    attn_outputs, _ = scaled_dot_product_attention(q, k, v, combined_mask)
    x = np.transpose(attn_outputs, (0, 2, 1, 3))
    return x.reshape(N, L, embed_dim) @ W_O
