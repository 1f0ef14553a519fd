"""Port of Abdallahdula/da6401_assignment_3_abdallah, model.py (commit f5426a1, May 2026): scaled_dot_product_attention,
make_tgt_mask and MultiHeadAttention, a student's solution of IIT Madras DA6401 Introduction to Deep Learning (Jan-May
2026), assignment 3 "Attention Is All You Need" (a Transformer for German-English translation on Multi30k: the course's
skeleton, model.py, fixes the signatures of scaled_dot_product_attention(Q, K, V, mask) -> (out, weights),
make_src_mask, make_tgt_mask and MultiHeadAttention.forward(query, key, value, mask), gives
MultiHeadAttention.__init__'s `assert d_model % num_heads == 0` and `self.d_k = d_model // num_heads`, and says that a
mask is True where a position is MASKED OUT; the students write the bodies).

Ports scaled_dot_product_attention, causal_mask (make_tgt_mask) and multi_head_attention (MultiHeadAttention.forward on
self-attention, query = key = value = X).

Conventions kept: scaled_dot_product_attention(Q, K, V, mask=None, scale: bool = True) takes a fifth parameter of its
own, `scale`, a FLAG for the ablation without scaling (the contract's fifth parameter is the scale itself): `scores =
torch.matmul(Q, K.transpose(-2, -1))`, `if scale: scores = scores / math.sqrt(d_k)` with `d_k = Q.size(-1)` (so a scale
given is read only as true or false, and None turns the scaling off), `scores.masked_fill(mask, float('-inf'))` (the
course's convention: True = masked out; out of place, so mask and scores broadcast), `torch.softmax(scores, dim=-1)` (an
all -inf row is NaN), returning `(torch.matmul(attn, V), attn)`. make_tgt_mask(tgt, pad_idx=1) reads `bsz, tgt_len =
tgt.shape`, ORs the padding mask `(tgt == pad_idx).unsqueeze(1).unsqueeze(2)` ([B, 1, 1, T]) with
`torch.triu(torch.ones((tgt_len, tgt_len), dtype=torch.bool), diagonal=1)` made [1, 1, T, T] and returns [B, 1, T, T],
True = masked (PAD or future token). MultiHeadAttention(d_model, num_heads, dropout, scale_attention=True) keeps the
skeleton's assert and `self.d_k = d_model // num_heads`, builds four `nn.Linear(d_model, d_model)` layers (w_q, w_k,
w_v, w_o); `_split(x)` reads `b, s, _ = x.shape` (3-D only) and returns `x.view(b, s, self.num_heads,
self.d_k).transpose(1, 2)`; forward splits the three projections, calls `scaled_dot_product_attention(q, k, v, mask,
scale=self.scale_attention)` with the mask as given (a (B, N, N) mask meets the (B, H, N, N) scores without a head
axis), merges with `_combine`, `x.transpose(1, 2).contiguous().view(b, s, h * d)`, and applies w_o.

Left out: the Linear layers' biases (zero here: the contract has none), the dropout (built, never applied), the saved
`self.last_attn`. Added for the contract only: causal_mask(n_q, n_k) is make_tgt_mask on a (1, n_q) row of non-pad
tokens (index 0; n_k has no counterpart); multi_head_attention is MultiHeadAttention(d_model=X.shape[-1], num_heads)
with W_Q, W_K, W_V and W_O the weights of w_q, w_k, w_v and w_o (x @ W for the Linear's x @ weight.T), loaded as
load_state_dict would (it raises unless each is (d_model, d_model)), and the contract's mask passed as the student's.
"""

import math

import numpy as np

PAD_IDX = 1


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


def _softmax_last(x):  # torch.softmax(x, dim=-1): an all -inf row is NaN
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=True):
    d_k = Q.shape[-1]
    scores = Q @ np.swapaxes(K, -2, -1)
    if scale:
        scores = scores / math.sqrt(d_k)
    if mask is not None:
        scores = np.where(mask, -np.inf, scores)  # masked_fill(mask, -inf): True = masked out
    attn = _softmax_last(scores)
    out = attn @ V
    return out, attn


def _make_tgt_mask(tgt, pad_idx=PAD_IDX):
    _bsz, tgt_len = tgt.shape
    pad_mask = (tgt == pad_idx)[:, None, None, :]
    causal = np.triu(np.ones((tgt_len, tgt_len), dtype=bool), k=1)
    causal = causal[None, None]
    return pad_mask | causal


def causal_mask(n_q, n_k=None):
    return _make_tgt_mask(np.zeros((1, n_q), dtype=int))


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]
    assert d_model % num_heads == 0
    d_k = d_model // num_heads
    scale_attention = True
    query = key = value = X

    def _split(x):
        b, s, _ = x.shape
        return np.swapaxes(_view(x, (b, s, num_heads, d_k)), 1, 2)

    def _combine(x):
        b, h, s, d = x.shape
        return _view(np.swapaxes(x, 1, 2), (b, s, h * d))

    q = _split(_linear(query, W_Q, d_model, d_model))
    k = _split(_linear(key, W_K, d_model, d_model))
    v = _split(_linear(value, W_V, d_model, d_model))
    out, _attn = scaled_dot_product_attention(q, k, v, mask, scale=scale_attention)
    out = _combine(out)
    return _linear(out, W_O, d_model, d_model)
