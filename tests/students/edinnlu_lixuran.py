"""Port of lixuran/nlu-coursework2, seq2seq/models/transformer_helper.py (commit 98fcfc6): MultiHeadAttention.forward,
a student's solution of the University of Edinburgh's NLU+ (INFR11157, Natural Language Understanding, Generation and
Machine Translation), coursework 2 of 2019-20 (question 8: multi-head attention in the course's fairseq-style
Transformer for German-English translation).

Ports multi_head_attention (MultiHeadAttention.forward run as self-attention). The course's __init__ (given code) is
kept: `self.head_embed_size = embed_dim // num_attn_heads`, `self.head_scaling = math.sqrt(self.head_embed_size)`,
`assert self.head_embed_size * self.num_heads == self.embed_dim, "Embed dim must be divisible by num_heads!"`.

Conventions kept: the course's tensors are time-major: forward reads `tgt_time_steps, batch_size, embed_dim =
query.size()` (3-D input only, tokens FIRST, then the batch), `src_time_steps = value.size(0)`, and returns (T, B, E).
With `t,b,h,k,s=tgt_time_steps,batch_size,self.num_heads,self.head_embed_size,src_time_steps` it splits with
`self.q_proj(query).view(t,b,h,k)` (every head D // num_heads wide; likewise `view(s,b,h,k)` for v and k), then
`Wq.transpose(0, 1).transpose(1,2).view(b*h,t,k)` (a legal view: b and h stay adjacent), `dot = torch.bmm( Wq ,
Wk.transpose(1,2))/self.head_scaling`; the mask (the course's additive float attn_mask of 0 and -inf) is MULTIPLIED
in: `attn_mask=attn_mask.unsqueeze(0)`, `attn_mask=attn_mask.expand(b*h,t,t)` (a (t, t) mask, or axes of length 1;
a mask of 3 or more axes raises) and `dot = dot*attn_mask` (a boolean mask zeroes the disallowed scores and keeps the
others); then `F.softmax( dot , dim=2)`, `torch.bmm( dot , Wv).view(b,h,t,k)`, `out.transpose(1, 2).transpose(0,
1).contiguous().view(t, b, h * k)` and out_proj.

Left out: the key_padding_mask branch (the contract has no padding mask: None), the view of the returned weights
(contiguous: it cannot fail), the nn.Linear biases (zero here: the contract has none). Added for the contract only:
multi_head_attention builds the course's MultiHeadAttention(embed_dim = X.shape[-1], num_heads,
self_attention=True), calls forward(query=X, key=X, value=X, attn_mask=mask) with X as given (not transposed: the
student's code reads its first axis as the tokens), q_proj, k_proj, v_proj and out_proj are W_Q, W_K, W_V and W_O (x
@ W, not loaded with a shape check), and it returns only attn (the contract's multi_head_attention has no weights).
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
    src_time_steps = value.shape[0]
    assert embed_dim_model == embed_dim
    t, b, h, k, s = tgt_time_steps, batch_size, num_heads, head_embed_size, src_time_steps
    Wq = (query @ W_Q).reshape(t, b, h, k)
    Wv = (value @ W_V).reshape(s, b, h, k)
    Wk = (key @ W_K).reshape(s, b, h, k)
    Wq = np.swapaxes(np.swapaxes(Wq, 0, 1), 1, 2).reshape(b * h, t, k)
    Wv = np.swapaxes(np.swapaxes(Wv, 0, 1), 1, 2).reshape(b * h, s, k)
    Wk = np.swapaxes(np.swapaxes(Wk, 0, 1), 1, 2).reshape(b * h, s, k)
    dot = Wq @ np.swapaxes(Wk, 1, 2) / head_scaling
    if attn_mask is not None:
        attn_mask = attn_mask[None]  # unsqueeze(0)
        if attn_mask.ndim > 3:  # expand(b*h, t, t): fewer sizes than axes
            raise RuntimeError(f"expand: the number of sizes provided (3) must be greater or equal to the number of "
                               f"dimensions in the tensor ({attn_mask.ndim})")
        attn_mask = np.broadcast_to(attn_mask, (b * h, t, t))  # expand: each axis equal or of length 1
        dot = dot * attn_mask
    dot = _softmax(dot, axis=2)
    out = (dot @ Wv).reshape(b, h, t, k)
    out = np.swapaxes(np.swapaxes(out, 1, 2), 0, 1).reshape(t, b, h * k)
    return out @ W_O
