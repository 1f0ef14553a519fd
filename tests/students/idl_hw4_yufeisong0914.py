"""Port of yufeisong0914/IDL-hw4, mytorch/nn/activation.py (Softmax), mytorch/nn/scaled_dot_product_attention.py and
mytorch/nn/multi_head_attention.py (CMU 11-785 HW4P1, a student's solution).

Conventions kept: Softmax(dim) moves `dim` last, flattens to 2-D, subtracts each row's max (an all -inf row gives
-inf - (-inf) = NaN) and has no temperature; attention divides Q @ K^T by sqrt(Q.shape[-1]) (any leading axes; there
is no scale argument), ADDS `mask * (-self.eps)` with eps = 1e10 (the course's mask is True = ignore, and the fill
is finite), then the student's Softmax(dim=-1); multi-head attention reads `self.N = query.shape[0]; self.L =
query.shape[1]; self.E = query.shape[2]` (batch-first 3-D input only), _split_heads unpacks `N, L, E = x.shape` of
each projection and reshapes it to (N, L, H, E // H) (the head width taken from the projection itself, so d_v may
differ from d_k), _merge_masks turns the attention mask into `attn_mask[np.newaxis, np.newaxis, :, :]` broadcast
to (N, H, L, S) (a per-sequence (N, L, S) mask becomes (1, 1, N, L, S) and cannot be broadcast), _concat_heads
reshapes to (N, L, H * head_dim); the constructor raises unless embed_dim % num_heads == 0. Added for the
contract only: attention returns (out, weights); softmax(Z, axis, temperature) is Softmax(dim=axis).forward(Z);
W_Q, W_K, W_V, W_O replace the Linear layers (no biases), embed_dim is X.shape[-1], the contract's mask is passed
as attn_mask (no key_padding_mask), self-attention (query = key = value = X).
"""

import numpy as np

EPS = 1e10  # ScaledDotProductAttention.eps (DO NOT MODIFY)


def softmax(Z, axis=-1, temperature=1.0):
    if axis > len(Z.shape) or axis < -len(Z.shape):
        raise ValueError("Dimension to apply softmax to is greater than the number of dimensions in Z")
    dim = axis if axis >= 0 else len(Z.shape) + axis
    Z_moved = np.moveaxis(Z, dim, -1)
    orig_shape = Z_moved.shape
    Z_2d = Z_moved.reshape(-1, Z_moved.shape[-1])
    Z_max = Z_2d.max(axis=-1, keepdims=True)
    exp_Z = np.exp(Z_2d - Z_max)
    A_2d = exp_Z / exp_Z.sum(axis=-1, keepdims=True)
    return np.moveaxis(A_2d.reshape(orig_shape), -1, dim)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    d_k = Q.shape[-1]
    scaled_dot_product = np.matmul(Q, np.swapaxes(K, -2, -1)) / np.sqrt(d_k)
    if mask is not None:
        scaled_dot_product = scaled_dot_product + mask * (-EPS)
    attention_scores = softmax(scaled_dot_product, -1)
    return np.matmul(attention_scores, V), attention_scores


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    embed_dim = X.shape[-1]
    if embed_dim % num_heads != 0:
        raise ValueError("embed_dim must be divisible by num_heads")
    N, L, _E = X.shape[0], X.shape[1], X.shape[2]  # self.N, self.L, self.E (query.shape[2]: 3-D only)
    S = X.shape[1]

    def split_heads(x):
        N, L, E = x.shape
        head_dim = E // num_heads
        return x.reshape(N, L, num_heads, head_dim).transpose(0, 2, 1, 3)

    def merge_masks(attn_mask):
        combined_mask = None
        if attn_mask is not None:
            attention_mask = attn_mask[np.newaxis, np.newaxis, :, :]
            combined_mask = np.broadcast_to(attention_mask, (N, num_heads, L, S)).copy()
        return combined_mask

    def concat_heads(x):
        N, H, L, head_dim = x.shape
        return x.transpose(0, 2, 1, 3).reshape(N, L, H * head_dim)

    q, k, v = split_heads(X @ W_Q), split_heads(X @ W_K), split_heads(X @ W_V)
    attn_outputs, _ = scaled_dot_product_attention(q, k, v, merge_masks(mask))
    return concat_heads(attn_outputs) @ W_O
