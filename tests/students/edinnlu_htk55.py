"""Port of HTK55/NLU-CW2, seq2seq/models/transformer_helper.py (commit 40641ed): MultiHeadAttention.forward, a
student's solution of the University of Edinburgh's NLU+ (Natural Language Understanding, Generation and Machine
Translation), coursework 2 of spring 2023 (question 6: multi-head attention in the course's fairseq-style Transformer
for German-English translation).

Ports multi_head_attention (MultiHeadAttention.forward run as self-attention). The course's __init__ (given code) is
kept: `self.head_embed_size = embed_dim // num_attn_heads`, `self.head_scaling = math.sqrt(self.head_embed_size)`,
`assert self.head_embed_size * self.num_heads == self.embed_dim, "Embed dim must be divisible by num_heads!"`.

Conventions kept: the course's tensors are time-major: forward reads `tgt_time_steps, batch_size, embed_dim =
query.size()` (3-D input only, tokens FIRST, then the batch) and returns (T, B, E). It splits each projection with
`q.view(-1, batch_size, self.num_heads, self.head_embed_size)` (every head D // num_heads wide; the -1 takes the
tokens), `q.transpose(0, 2).contiguous().view(self.num_heads * batch_size, -1, self.head_embed_size)` (and k, v),
`attn_weights = torch.bmm(q,k.transpose(1,2)) / self.head_scaling`; the mask is the course's additive attn_mask (a
float (T, S) tensor of 0 and -inf), turned into a boolean one: `attn_mask = attn_mask.unsqueeze(dim=0)`, `attn_mask_ =
attn_mask.repeat(self.num_heads * batch_size,1,1)` (never used; it raises for a mask of 3 or more axes), `attn_mask =
(attn_mask == float("-inf"))` and `attn_weights.masked_fill_(attn_mask, float("-inf"))` (in place: the mask must
broadcast to the scores' own shape). A boolean mask is never equal to -inf, so it hides nothing. Then
`F.softmax(attn_weights, dim=-1)`, `torch.bmm(attn_weights, v)`, `attn.contiguous().view(self.num_heads, batch_size,
tgt_time_steps, self.head_embed_size)`, `attn.transpose(0,2)`, `view(tgt_time_steps, batch_size, self.num_heads *
self.head_embed_size)` and out_proj.

Left out: the key_padding_mask branch (the contract has no padding mask: None; its masked_fill is not in place
anyway), the reshaping of the returned weights (contiguous: it cannot fail), the nn.Linear biases (zero here: the
contract has none). Added for the contract only: multi_head_attention builds the course's MultiHeadAttention(
embed_dim = X.shape[-1], num_heads, self_attention=True), calls forward(query=X, key=X, value=X, attn_mask=mask) with
X as given (not transposed: the student's code reads its first axis as the tokens), q_proj, k_proj, v_proj and
out_proj are W_Q, W_K, W_V and W_O (x @ W, not loaded with a shape check), and it returns only attn (the contract's
multi_head_attention has no weights).
"""

import math

import numpy as np


def _softmax(x, axis):  # F.softmax: an all -inf slice gives -inf - (-inf) = NaN
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    embed_dim_model = X.shape[-1]  # MultiHeadAttention(embed_dim, num_attn_heads, self_attention=True).__init__
    head_embed_size = embed_dim_model // num_heads
    head_scaling = math.sqrt(head_embed_size)
    assert head_embed_size * num_heads == embed_dim_model, "Embed dim must be divisible by num_heads!"
    query = key = value = X
    attn_mask = None if mask is None else np.asarray(mask)

    tgt_time_steps, batch_size, embed_dim = query.shape
    assert embed_dim_model == embed_dim
    q = (query @ W_Q).reshape(-1, batch_size, num_heads, head_embed_size)
    k = (key @ W_K).reshape(-1, batch_size, num_heads, head_embed_size)
    v = (value @ W_V).reshape(-1, batch_size, num_heads, head_embed_size)
    q = np.swapaxes(q, 0, 2).reshape(num_heads * batch_size, -1, head_embed_size)
    k = np.swapaxes(k, 0, 2).reshape(num_heads * batch_size, -1, head_embed_size)
    v = np.swapaxes(v, 0, 2).reshape(num_heads * batch_size, -1, head_embed_size)
    attn_weights = q @ np.swapaxes(k, 1, 2) / head_scaling
    if attn_mask is not None:
        attn_mask = attn_mask[None]  # attn_mask.unsqueeze(dim=0)
        if attn_mask.ndim > 3:  # attn_mask.repeat(self.num_heads * batch_size, 1, 1): too few repeat dims
            raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions of "
                               "tensor")
        attn_mask = attn_mask == -np.inf
        if np.broadcast_shapes(attn_mask.shape, attn_weights.shape) != attn_weights.shape:  # masked_fill_ (in place)
            raise RuntimeError(f"output with shape {list(attn_weights.shape)} doesn't match the broadcast shape")
        attn_weights = np.where(attn_mask, -np.inf, attn_weights)
    attn_weights = _softmax(attn_weights, axis=-1)
    attn = attn_weights @ v
    attn = attn.reshape(num_heads, batch_size, tgt_time_steps, head_embed_size)
    attn = np.swapaxes(attn, 0, 2)
    attn = attn.reshape(tgt_time_steps, batch_size, num_heads * head_embed_size)
    return attn @ W_O
