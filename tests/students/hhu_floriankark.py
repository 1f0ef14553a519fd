"""Port of floriankark/transformer, modelling/attention.py (commit 038f380, March 2024; first pushed to HHU's GitLab,
git.hhu.de/flkar101/transformer_project): scaled_dot_product_attention and MultiHeadAttention, a student's solution
(winter 2023/24) of Heinrich Heine University Düsseldorf's practical course "Implementing Transformer Models" (Carel
van Niekerk and Hsien-Chin Lin): Practical II asks for an attention taking "query, key, value, mask=None", where the
mask is the course's binary padding mask (batch, key length), 1 = a real token, and the future mask is built inside;
Practical V asks for a multi-head attention with bias-free nn.Linear projections of d_model features, which the
course's tests fill with `load_state_dict`.

Ports scaled_dot_product_attention (the student's function of that name) and multi_head_attention
(MultiHeadAttention.forward, which calls it).

Conventions kept: scaled_dot_product_attention(q, k, v, attn_mask=None, mask_future=False, dropout=0.1) reads `L, S
= q.size(-2), k.size(-2)`, `scale_factor = 1.0/sqrt(k.size(-1))` (there is no scale argument), an additive
`attn_bias` of zeros (with mask_future, -1e4 above the diagonal), `attn_weight = (q @ k.transpose(-2, -1)) *
scale_factor + attn_bias` (any leading axes), then, given a mask, `attn_weight.masked_fill(attn_mask == 0,
-1e4)` (the mask as given, 0/False = masked; a finite fill: a fully masked row becomes uniform), `torch.softmax(
attn_weight, dim=-1)` and `attn_weight @ v`. MultiHeadAttention(d_model, n_heads, dropout=0.1) sets `self.head_dim =
d_model // n_heads` and four `nn.Linear(d_model, d_model, bias=False)` named q_proj, k_proj, v_proj and out_proj;
forward(q, k, v, attn_mask=None, mask_future=False) reads `batch_size = k.size(0)`, `seq_len = k.size(1)`, `seq_len_q
= q.size(1)`, views each projection as (batch_size, len, n_heads, head_dim) and transposes it (3-D input only), reads
the mask as the course's (batch, N_k) padding mask, `attn_mask.view(batch_size, 1, 1, seq_len).expand(-1,
self.n_heads, seq_len, -1)` (no mask: AttributeError; a mask of other than batch_size * N_k entries, e.g. a shared
(N, N) mask with N != batch_size or a (B, N, N) mask, raises; a shared (N, N) mask with N == batch_size masks
sequence b's keys with mask row b for every query), calls scaled_dot_product_attention(q, k, v, attn_mask,
mask_future=mask_future, dropout=self.attn_drop), transposes back, `.view(batch_size, seq_len, self.d_model)` and
applies out_proj.

Left out: dropout: `torch.dropout(attn_weight, p=dropout, train=True)` on the weights (hard-coded train=True, so with
the layer's p = 0.1 it also drops weights at evaluation; the student removed `train=True` in a3bee63, January 2025,
after which the call raises TypeError) and nn.Dropout after out_proj; `_reset_parameters` (xavier initialisation,
replaced by the loaded weights). Added for the contract only: scaled_dot_product_attention(Q, K, V, mask, scale) is the
student's function with attn_mask = mask and mask_future False (the contract's mask carries any causal pattern) and
returns (out, weights) (the student returns the output; the weights are its softmax); `scale` is accepted and never
read; in multi_head_attention d_model is X.shape[-1] and n_heads is num_heads, W_Q, W_K, W_V and W_O are loaded as the
course's tests load the weights, `load_state_dict` of q_proj.weight = W_Q.T (and likewise), whose shape check raises
unless every weight is (d_model, d_model); self-attention passes X as q, k and v and mask_future is False.
"""

from math import sqrt

import numpy as np


def _softmax_last(x):  # torch.softmax(x, dim=-1)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def _scaled_dot_product_attention(q, k, v, attn_mask=None, mask_future=False):  # the weights returned too
    L, S = q.shape[-2], k.shape[-2]
    scale_factor = 1.0 / sqrt(k.shape[-1])
    attn_bias = np.zeros((L, S), dtype=q.dtype)
    if mask_future:
        attn_bias = np.triu(np.full((L, S), -1e4, dtype=q.dtype), k=1)
    attn_weight = (q @ np.swapaxes(k, -2, -1)) * scale_factor
    attn_weight = attn_weight + attn_bias
    if attn_mask is not None:
        attn_weight = np.where(np.asarray(attn_mask) == 0, -1e4, attn_weight)  # masked_fill, out of place
    attn_weight = _softmax_last(attn_weight)
    return attn_weight @ v, attn_weight


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    return _scaled_dot_product_attention(Q, K, V, attn_mask=mask)


def _load_state_dict(d_model, **weights):  # load_state_dict into nn.Linear(d_model, d_model): a size check
    state = {}
    for name, W in weights.items():
        weight = np.asarray(W).T  # nn.Linear stores (out_features, in_features)
        if weight.shape != (d_model, d_model):
            raise RuntimeError(f"Error(s) in loading state_dict for MultiHeadAttention: size mismatch for {name}: "
                               f"copying a param with shape {weight.shape} from checkpoint, the shape in current "
                               f"model is {(d_model, d_model)}.")
        state[name] = weight
    return state


def _view(x, *shape):  # Tensor.view: the same number of entries
    if -1 not in shape and int(np.prod(shape)) != x.size:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {x.size}")
    return x.reshape(shape)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model, n_heads = X.shape[-1], num_heads
    head_dim = d_model // n_heads
    state = _load_state_dict(d_model, q_proj=W_Q, k_proj=W_K, v_proj=W_V, out_proj=W_O)
    q = k = v = X
    batch_size = k.shape[0]
    seq_len = k.shape[1]
    seq_len_q = q.shape[1]
    q = _view(q @ state["q_proj"].T, batch_size, seq_len_q, n_heads, head_dim).swapaxes(1, 2)
    k = _view(k @ state["k_proj"].T, batch_size, seq_len, n_heads, head_dim).swapaxes(1, 2)
    v = _view(v @ state["v_proj"].T, batch_size, seq_len, n_heads, head_dim).swapaxes(1, 2)
    if mask is None:  # attn_mask.view(...) on None
        raise AttributeError("'NoneType' object has no attribute 'view'")
    attn_mask = _view(np.asarray(mask), batch_size, 1, 1, seq_len)
    attn_mask = np.broadcast_to(attn_mask, (batch_size, n_heads, seq_len, seq_len))  # .expand(-1, H, seq_len, -1)
    attn_output, _ = scaled_dot_product_attention(q, k, v, mask=attn_mask)
    attn_output = attn_output.swapaxes(1, 2)
    attn_output = _view(attn_output, batch_size, seq_len, d_model)
    return attn_output @ state["out_proj"].T
