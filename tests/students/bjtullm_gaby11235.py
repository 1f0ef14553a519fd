"""Port of Gaby11235/transformer-assignment, src/model.py (commit 39fd959, "update: added RoPE, SDPA optimization and
loss curve visualization", November 2025): apply_rope, scaled_dot_product_attention, MultiHeadAttention and
make_causal_mask, a student's solution of the mid-term assignment of the course 大模型基础与应用 ("Foundations and
Applications of Large Models", autumn 2025): a "Mini Transformer (From Scratch)" (an encoder-only character-level LM on
Tiny Shakespeare and an encoder-decoder for a toy copy task) with a LaTeX report, scripts/run.sh and ablations.

Ports rope (apply_rope), scaled_dot_product_attention, multi_head_attention (MultiHeadAttention.forward on
self-attention, x_q = x_kv = X) and causal_mask (make_causal_mask).

Conventions kept: apply_rope(x) reads `B, H, T, D = x.shape` (4-D only), asserts D even, builds `inv_freq = 1.0 /
(10000 ** (freq_seq / half))` for `freq_seq = torch.arange(half)` (base 10000, fixed), `pos = torch.arange(T)` (token
t at position t: there is no positions argument), `sinusoid = torch.einsum("t,f->tf", pos, inv_freq)` and returns
`torch.cat([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1)` with `x1, x2 = x[..., :half], x[..., half:]` (the
halves layout). scaled_dot_product_attention(q, k, v, mask=None, dropout_p=0.0, is_causal=False, use_sdpa=True) takes
PyTorch's path by default (`if use_sdpa and sdpa_available()`): it builds the additive mask `attn_mask = (~mask).to(
q.dtype) * float("-inf")` (its comment: "False->-inf, True->0"; but a kept entry is 0 * -inf = NaN), calls
`F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask, dropout_p=dropout_p if q.requires_grad else 0.0,
is_causal=is_causal)` (scale 1/sqrt(q.size(-1)); PyTorch's safe softmax gives a row whose scores are all -inf zero
weights, and a row with a NaN score NaN) and returns `out, None` ("return attn probs only for API compatibility (None
here)"). MultiHeadAttention(d_model, n_head, attn_dropout, proj_dropout, use_rope=False, use_sdpa=True) asserts
`d_model % n_head == 0`, sets `self.d_head = d_model // n_head` (the head width of the queries, keys AND values),
builds `w_q`, `w_k`, `w_v` and `out_proj` as `nn.Linear(d_model, d_model, bias=False)`; forward(x_q, x_kv, mask=None,
is_causal=False) reads `B, Tq, C = x_q.shape` (3-D only) and `Tk = x_kv.shape[1]`, views each projection as `view(B, T,
self.n_head, self.d_head).transpose(1, 2)`, gives a 3-D mask its head axis (`mask.unsqueeze(1).expand(B, self.n_head,
...)`; a 4-D [B, 1, Tq, Tk] one is expanded to the heads, a 2-D one left to broadcast), calls its
scaled_dot_product_attention(q, k, v, mask=mask, dropout_p=self.attn_dropout, is_causal=is_causal,
use_sdpa=self.use_sdpa), merges with `out.transpose(1, 2).contiguous().view(B, Tq, self.d_model)` (the input's width)
and applies out_proj. make_causal_mask(T_q, T_k=None) returns `torch.tril(torch.ones((T_q, T_k))).bool()` with
`.unsqueeze(0).unsqueeze(0)`: [1, 1, T_q, T_k], True = keep, top-left aligned.

Left out: dropout (attn_dropout 0.0 and proj_dropout 0.0 by default; PyTorch's SDPA drops nothing without gradients),
the manual fallback of scaled_dot_product_attention (taken only with use_sdpa=False or a PyTorch without SDPA), the
trainers' --use_rope flag (off by default: the encoder's MultiHeadAttention does not rotate). Added for the contract
only: the contract's inputs are tensors without gradients (`q.requires_grad` is False, so the contract's fifth
argument, the scale, lands on dropout_p and is never used); multi_head_attention is MultiHeadAttention(d_model=
X.shape[-1], n_head=num_heads) with defaults and W_Q, W_K, W_V and W_O the weights of w_q, w_k, w_v and out_proj (x @ W
for the Linear's x @ weight.T), loaded as load_state_dict would (it raises unless each is (d_model, d_model)), the
contract's mask passed as the student's; rope(x, positions, base) is apply_rope(x) (`positions` and `base` are never
read); causal_mask(n_q, n_k) is make_causal_mask(n_q, n_k).
"""

import math

import numpy as np

REQUIRES_GRAD = False  # the contract's arrays, as tensors: no gradients


def _linear(x, W, in_features, out_features):  # nn.Linear(in_features, out_features, bias=False) given W
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


def _torch_sdpa(q, k, v, attn_mask=None, dropout_p=0.0, is_causal=False):  # F.scaled_dot_product_attention (math)
    L, S = q.shape[-2], k.shape[-2]
    attn = (q @ np.swapaxes(k, -2, -1)) * (1.0 / math.sqrt(q.shape[-1]))
    if is_causal:
        attn = np.where(np.tril(np.ones((L, S), dtype=bool)), attn, -np.inf)
    if attn_mask is not None:
        attn = attn + attn_mask
    with np.errstate(invalid="ignore"):
        e = np.exp(attn - np.max(attn, axis=-1, keepdims=True))
        weights = e / np.sum(e, axis=-1, keepdims=True)
    weights = np.where(np.all(attn == -np.inf, axis=-1, keepdims=True), 0.0, weights)  # the safe softmax
    return weights @ v  # dropout_p: 0.0 here


def apply_rope(x):
    _B, _H, T, D = x.shape
    assert D % 2 == 0, "RoPE requires head_dim to be even."
    half = D // 2
    freq_seq = np.arange(half, dtype=float)
    inv_freq = 1.0 / (10000 ** (freq_seq / half))
    pos = np.arange(T, dtype=float)
    sinusoid = np.einsum("t,f->tf", pos, inv_freq)
    sin = np.sin(sinusoid)[None, None, :, :]
    cos = np.cos(sinusoid)[None, None, :, :]
    x1, x2 = x[..., :half], x[..., half:]
    return np.concatenate([x1 * cos - x2 * sin, x1 * sin + x2 * cos], axis=-1)


def rope(x, positions, base=10000.0):
    return apply_rope(np.asarray(x))


def scaled_dot_product_attention(q, k, v, mask=None, dropout_p=0.0, is_causal=False, use_sdpa=True):
    if use_sdpa:  # sdpa_available(): PyTorch 2 has F.scaled_dot_product_attention
        attn_mask = None
        if mask is not None:
            with np.errstate(invalid="ignore"):
                attn_mask = (~np.asarray(mask, dtype=bool)).astype(q.dtype) * float("-inf")  # 0 * -inf = NaN
        out = _torch_sdpa(q, k, v, attn_mask=attn_mask, dropout_p=dropout_p if REQUIRES_GRAD else 0.0,
                          is_causal=is_causal)
        return out, None
    d_k = q.shape[-1]  # the manual fallback (not taken)
    scores = q @ np.swapaxes(k, -2, -1) / math.sqrt(d_k)
    if mask is not None:
        scores = np.where(np.asarray(mask) == 0, -np.inf, scores)
    e = np.exp(scores - np.max(scores, axis=-1, keepdims=True))
    attn = e / np.sum(e, axis=-1, keepdims=True)
    return attn @ v, attn


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model, n_head = X.shape[-1], num_heads
    assert d_model % n_head == 0, "d_model must be divisible by n_head"
    d_head = d_model // n_head
    use_rope, use_sdpa, attn_dropout, is_causal = False, True, 0.0, False
    x_q = x_kv = X

    B, Tq, _C = x_q.shape
    Tk = x_kv.shape[1]
    q = np.swapaxes(_view(_linear(x_q, W_Q, d_model, d_model), (B, Tq, n_head, d_head)), 1, 2)
    k = np.swapaxes(_view(_linear(x_kv, W_K, d_model, d_model), (B, Tk, n_head, d_head)), 1, 2)
    v = np.swapaxes(_view(_linear(x_kv, W_V, d_model, d_model), (B, Tk, n_head, d_head)), 1, 2)
    if use_rope:
        q = apply_rope(q)
        k = apply_rope(k)
    if mask is not None:
        mask = np.asarray(mask)
        if mask.ndim == 4:
            if mask.shape[1] == 1 and n_head > 1:
                mask = np.broadcast_to(mask, (B, n_head, mask.shape[2], mask.shape[3]))
        elif mask.ndim == 3:
            mask = np.broadcast_to(mask[:, None], (B, n_head, mask.shape[1], mask.shape[2]))
    out, _ = scaled_dot_product_attention(q, k, v, mask=mask, dropout_p=attn_dropout, is_causal=is_causal,
                                          use_sdpa=use_sdpa)
    out = _view(np.swapaxes(out, 1, 2), (B, Tq, d_model))
    return _linear(out, W_O, d_model, d_model)  # proj_dropout 0.0


def make_causal_mask(T_q, T_k=None):
    if T_k is None:
        T_k = T_q
    m = np.tril(np.ones((T_q, T_k))).astype(bool)
    return m[None, None]


def causal_mask(n_q, n_k=None):
    return make_causal_mask(n_q, n_k)
