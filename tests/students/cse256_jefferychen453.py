"""Port of JefferyChen453/UCSD-CSE256-2026WI-PA2, transformer/attention.py (commit 067e358):
scaled_dot_product_attention and MultiHeadAttention, a student's solution of UC San Diego CSE 256 (Statistical Natural
Language Processing), programming assignment 2 (transformer encoder and decoder).

Conventions kept: `scaled_dot_product_attention(Q, K, V, mask=None)` has no scale argument: einsum('... queries d_k,
... keys d_k -> ... queries keys') / math.sqrt(d_k), with a mask `attn_score.masked_fill_(~mask, -torch.inf)` (True =
may attend; in place, so the mask must broadcast to the scores' own shape), F.softmax(dim=-1) (an all -inf row is
NaN), and returns (output, attn_score). MultiHeadAttention.forward projects, splits with einops `rearrange(Q, "... s
(h d_k) -> ... h s d_k", h=self.num_heads)` (the heads' widths come from the projections; any leading axes), calls
scaled_dot_product_attention(Q, K, V, mask) with the mask as given (a (batch, s, s) mask meets the (batch, h, s, s)
scores without a head axis), merges with `rearrange(output, "... h s d_k -> ... s (h d_k)")` and applies o_proj.
Left out: the Linear layers' biases and RoPE (pe_type "rope" only; the contract's multi-head attention has no
positions). Added for the contract only: a `scale` parameter (never read) so that the contract's calls reach the
student's code; the projections are W_Q, W_K, W_V and W_O.
"""

import math

import numpy as np


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    d_k = Q.shape[-1]
    attn_score = np.einsum("...qd,...kd->...qk", Q, K) / math.sqrt(d_k)
    if mask is not None:  # masked_fill_ (in place): the mask must broadcast to the scores' own shape
        if np.broadcast_shapes(np.shape(mask), attn_score.shape) != attn_score.shape:
            raise RuntimeError(f"output with shape {list(attn_score.shape)} doesn't match the broadcast shape")
        attn_score = np.where(~mask, -np.inf, attn_score)
    E = np.exp(attn_score - np.max(attn_score, axis=-1, keepdims=True))
    attn_score = E / np.sum(E, axis=-1, keepdims=True)
    output = np.einsum("...qk,...kd->...qd", attn_score, V)
    return output, attn_score


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    def split(M):  # "... s (h d_k) -> ... h s d_k"
        return np.swapaxes(M.reshape(*M.shape[:-1], num_heads, M.shape[-1] // num_heads), -3, -2)

    Q, K, V = split(X @ W_Q), split(X @ W_K), split(X @ W_V)
    output, _attn_score = scaled_dot_product_attention(Q, K, V, mask)
    output = np.swapaxes(output, -3, -2)
    output = output.reshape(*output.shape[:-2], -1)  # "... h s d_k -> ... s (h d_k)"
    return output @ W_O
