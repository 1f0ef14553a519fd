"""Port of neverleave111/transformer-assignment, LLM-class/src/model.py (commit 250f2e7, October 2025):
scaled_dot_product_attention and MultiHeadSelfAttention, a student's solution (committed from a Beijing Jiaotong
University address) of the mid-term assignment of the course 大模型基础与应用 ("Foundations and Applications of Large
Models", autumn 2025): a Transformer written by hand ("手工实现的 Transformer", attention variants, positional-encoding
options, encoder/decoder) trained on Tiny Shakespeare, IWSLT2017 and CNN/DailyMail, with ablation scripts and a LaTeX
report (conda environment `llm_class`).

Ports scaled_dot_product_attention and multi_head_attention (MultiHeadSelfAttention.forward, attention_type 'full').

Conventions kept: scaled_dot_product_attention(q, k, v, mask=None, attn_dropout=None, relative_bias=None) ("Robust
scaled dot-product attention ... will attempt to broadcast or repeat the mask to match scores' shape safely") computes
`torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.size(-1))`; without a mask it returns `F.softmax(scores, dim=-1)`
(passed through `attn_dropout(attn)` when attn_dropout is not None: a dropout MODULE, called) times v, and the weights.
With a mask it takes `mask_bool = mask.to(torch.bool)`, `T = S_shape[-1]` (the number of KEYS, used as the size of
both of the mask's last axes from here on), and normalises the mask: a 2-D mask of shape (T, T) becomes `(1, T, T)`,
any other 2-D mask is read as a (B, T) padding mask, `mask_bool.unsqueeze(2) & mask_bool.unsqueeze(1)` (row b's
entries mask both the rows and the columns of a (T, T) block), a 3-D or 4-D mask is kept; it prepends axes with
`view(*([1]*needed_prepend), ..., T, T)` (or `base.view(T, T)` when the mask has more leading axes than the scores),
which raises unless the mask's last two axes hold T x T entries, tries `base_view.expand(*desired_leading, T, T)`, and
on failure repeats the mask (`repeat_interleave`, or `repeat(*desired_leading, 1, 1)`) or expands once more (which
raises again); then `scores.masked_fill(~mask_proc, float("-1e9"))` (True = keep; a finite fill: a fully masked row
gets uniform weights; out of place, so mask and scores broadcast), `F.softmax(scores, dim=-1)`, the optional dropout
call, and returns `(torch.matmul(attn, v), attn)`. MultiHeadSelfAttention(embed_dim, num_heads, dropout=0.0,
attention_type='full', relative_pos=False, ...) asserts `embed_dim % num_heads == 0`, sets `self.head_dim = embed_dim //
num_heads` (the head width of the queries, keys AND values), builds `self.qkv_proj = nn.Linear(embed_dim, embed_dim*3)`
and `self.out_proj = nn.Linear(embed_dim, embed_dim)`; forward(x, mask=None) reads `B, T, C = x.size()` (3-D only),
takes `self.qkv_proj(x).view(B, T, 3, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4)` (the fused projection
cut into three equal thirds, then into heads), calls `scaled_dot_product_attention(q, k, v, mask=mask,
attn_dropout=self.attn_dropout, relative_bias=None)` with the mask as given, merges with `out.transpose(1,
2).contiguous().view(B, T, C)` (the input's width) and applies out_proj.

Left out: dropout (the nn.Dropout modules are the identity at evaluation: passed here as None, which the code
skips), the Linear layers' biases (zero here: the contract has none), the relative-position bias (relative_pos=False by
default), the linear and local attention variants (attention_type 'full' by default). Added for the contract only:
multi_head_attention is MultiHeadSelfAttention(embed_dim=X.shape[-1], num_heads) with qkv_proj's weight the fused [W_Q
| W_K | W_V] and out_proj's W_O (x @ W for the Linear's x @ weight.T), loaded as load_state_dict would (it raises
unless they are (embed_dim, 3 * embed_dim) and (embed_dim, embed_dim)), the contract's mask passed as the student's and
only the output returned; the contract's scaled_dot_product_attention(Q, K, V, mask, scale) lands its fifth argument,
the scale, on attn_dropout.
"""

import math

import numpy as np


def _linear(x, W, in_features, out_features):  # nn.Linear(in_features, out_features) given W (bias zero)
    W = np.asarray(W)
    if W.shape != (in_features, out_features):
        raise RuntimeError(f"size mismatch for weight: copying a param with shape {W.T.shape} from checkpoint, the "
                           f"shape in current model is {(out_features, in_features)}.")
    return x @ W


def _view(t, shape):  # torch.Tensor.view: the element count must match
    try:
        return np.reshape(t, shape)
    except ValueError as e:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {np.size(t)}") from e


def _expand(t, shape):  # torch.Tensor.expand: new leading axes, or axes of length 1 stretched
    try:
        return np.broadcast_to(t, shape)
    except ValueError as e:
        raise RuntimeError(f"The expanded size of the tensor must match the existing size: {t.shape} -> {shape}") from e


def _torch_repeat(t, sizes):  # torch.Tensor.repeat(*sizes), with at least t.ndim sizes
    if len(sizes) < t.ndim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
    return np.tile(t, sizes)


def _softmax_last(x):  # F.softmax(x, dim=-1)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def scaled_dot_product_attention(q, k, v, mask=None, attn_dropout=None, relative_bias=None):
    scores = q @ np.swapaxes(k, -2, -1) / math.sqrt(q.shape[-1])
    if relative_bias is not None:  # never given here (relative_pos=False)
        rb = relative_bias[None] if relative_bias.ndim == 3 else relative_bias
        scores = scores + rb

    if mask is None:
        attn = _softmax_last(scores)
        if attn_dropout is not None:
            attn = attn_dropout(attn)
        output = attn @ v
        return output, attn

    mask_bool = np.asarray(mask).astype(bool)
    S_shape = scores.shape
    T = S_shape[-1]

    if mask_bool.ndim == 2 and mask_bool.shape == (T, T):
        base = mask_bool[None]
    elif mask_bool.ndim == 2:
        base = mask_bool[:, :, None] & mask_bool[:, None, :]  # read as (B, T): (B, T, T)
    elif mask_bool.ndim == 3:
        base = mask_bool
    elif mask_bool.ndim == 4:
        base = mask_bool
    else:
        if mask_bool.shape[-2:] == (T, T):
            lead = mask_bool.ndim - 2
            base = _view(mask_bool, (*mask_bool.shape[:lead], T, T))
        else:
            raise RuntimeError(f"Unsupported mask shape {mask_bool.shape} for scores shape {S_shape}")

    desired_leading = S_shape[:-2]
    base_leading = base.shape[:-2]
    needed_prepend = len(desired_leading) - len(base_leading)
    if needed_prepend < 0:
        base_view = _view(base, (T, T))[None]
        base_view = _view(base_view, (*([1] * len(desired_leading)), T, T))
    else:
        base_view = _view(base, (*([1] * needed_prepend), *(base.shape[-(2 + len(base_leading)):-2]
                                                              if len(base_leading) > 0 else ()), T, T)) \
            if len(base_leading) > 0 else base[None]
        base_view = base
        if needed_prepend > 0:
            base_view = _view(base_view, (*([1] * needed_prepend), *base_view.shape))

    try:
        mask_expanded = _expand(base_view, (*desired_leading, T, T))
    except Exception:
        if len(desired_leading) == 1 and mask_bool.ndim in (2, 3) and base.shape[0] != desired_leading[0]:
            if base.shape[0] > 0 and desired_leading[0] % base.shape[0] == 0:
                rep = desired_leading[0] // base.shape[0]
                mask_expanded = np.repeat(base, rep, axis=0)
            else:
                mask_expanded = _torch_repeat(base_view, (*desired_leading, 1, 1))
        else:
            mask_expanded = base_view
            for _ in range(len(desired_leading) - len(mask_expanded.shape[:-2])):
                mask_expanded = mask_expanded[None]
            mask_expanded = _expand(mask_expanded, (*desired_leading, T, T))

    mask_proc = mask_expanded.astype(bool)
    scores = np.where(~mask_proc, float("-1e9"), scores)  # masked_fill(~mask_proc, -1e9), out of place

    attn = _softmax_last(scores)
    if attn_dropout is not None:
        attn = attn_dropout(attn)
    output = attn @ v
    return output, attn


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    embed_dim = X.shape[-1]
    assert embed_dim % num_heads == 0
    head_dim = embed_dim // num_heads
    qkv_weight = np.concatenate([W_Q, W_K, W_V], axis=1)  # qkv_proj = nn.Linear(embed_dim, embed_dim*3)

    B, T, C = X.shape
    qkv = _view(_linear(X, qkv_weight, embed_dim, embed_dim * 3), (B, T, 3, num_heads, head_dim))
    qkv = np.transpose(qkv, (2, 0, 3, 1, 4))
    q, k, v = qkv[0], qkv[1], qkv[2]
    out, _attn = scaled_dot_product_attention(q, k, v, mask=mask, attn_dropout=None, relative_bias=None)
    out = _view(np.swapaxes(out, 1, 2), (B, T, C))
    return _linear(out, W_O, embed_dim, embed_dim)  # proj_dropout: the identity at evaluation
