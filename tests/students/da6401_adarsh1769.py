"""Port of Adarsh17-69/DA6401_ASSIGNMENT3, model.py (commit d38a557, May 2026): scaled_dot_product_attention,
make_tgt_mask and MultiHeadAttention, a student's solution of IIT Madras DA6401 Introduction to Deep Learning (Jan-May
2026), assignment 3 "Attention Is All You Need" (a Transformer for German-English translation on Multi30k: the course's
skeleton, model.py, fixes the signatures of scaled_dot_product_attention(Q, K, V, mask) -> (out, weights),
make_src_mask, make_tgt_mask and MultiHeadAttention.forward(query, key, value, mask), gives
MultiHeadAttention.__init__'s `assert d_model % num_heads == 0` and `self.d_k = d_model // num_heads`, and says that a
mask is True where a position is MASKED OUT; the students write the bodies).

Ports scaled_dot_product_attention, causal_mask (make_tgt_mask) and multi_head_attention (MultiHeadAttention.forward on
self-attention, query = key = value = X).

Conventions kept: scaled_dot_product_attention(Q, K, V, mask=None, use_scale: bool = True) takes a fifth parameter of
its own, `use_scale`, a FLAG for the ablation without the sqrt(d_k) divisor (the contract's fifth parameter, the scale
itself, lands there: a scale given is read only as true or false, and None turns the scaling off): `scores =
torch.matmul(Q, K.transpose(-2, -1))`, `if use_scale: scores = scores / math.sqrt(d_k)` with `d_k = Q.size(-1)`,
`scores.masked_fill(mask, float("-inf"))` (the course's convention: True = masked out; out of place, so mask and scores
broadcast), `F.softmax(scores, dim=-1)` and `torch.nan_to_num(attn_w, nan=0.0)` ("handle all-masked rows": a fully
masked row gets zero weights), returning `(torch.matmul(attn_w, V), attn_w)`. make_tgt_mask(tgt, pad_idx=1) reads `B, T
= tgt.shape`, ORs the padding mask `(tgt == pad_idx).unsqueeze(1).unsqueeze(2)` ([B, 1, 1, T]) with `~torch.tril(
torch.ones(T, T, dtype=torch.bool)).unsqueeze(0).unsqueeze(0)` ([1, 1, T, T]) and returns [B, 1, T, T], True = masked
(PAD or future token). MultiHeadAttention(d_model, num_heads, dropout, use_scale=True) keeps the skeleton's assert and
`self.d_k = d_model // num_heads`, builds four `nn.Linear(d_model, d_model, bias=False)` layers (W_q, W_k, W_v, W_o);
`_split(x)` reads `B, S, _ = x.shape` (3-D only) and returns `x.view(B, S, self.num_heads, self.d_k).transpose(1, 2)`;
forward splits the three projections, calls `scaled_dot_product_attention(Q, K, V, mask=mask, use_scale=self.use_scale)`
with the mask as given (a (B, N, N) mask meets the (B, H, N, N) scores without a head axis), merges with `_merge`, `B,
_, S, _ = x.shape` and `x.transpose(1, 2).contiguous().view(B, S, self.d_model)`, and applies W_o.

Left out: dropout on the heads' output (the identity at evaluation), the saved `self.attn_weights`. Added for the
contract only: causal_mask(n_q, n_k) is make_tgt_mask on a (1, n_q) row of non-pad tokens (index 0; n_k has no
counterpart); multi_head_attention is MultiHeadAttention(d_model=X.shape[-1], num_heads) with W_Q, W_K, W_V and W_O the
weights of W_q, W_k, W_v and W_o (x @ W for the Linear's x @ weight.T), loaded as load_state_dict would (it raises
unless each is (d_model, d_model)), and the contract's mask passed as the student's.
"""

import math

import numpy as np

PAD_IDX = 1


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


def _softmax_last(x):  # F.softmax(x, dim=-1): an all -inf row is NaN
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, use_scale=True):
    d_k = Q.shape[-1]
    scores = Q @ np.swapaxes(K, -2, -1)
    if use_scale:
        scores = scores / math.sqrt(d_k)
    if mask is not None:
        scores = np.where(mask, -np.inf, scores)  # masked_fill(mask, -inf): True = masked out
    attn_w = _softmax_last(scores)
    attn_w = np.nan_to_num(attn_w, nan=0.0)  # handle all-masked rows
    output = attn_w @ V
    return output, attn_w


def _make_tgt_mask(tgt, pad_idx=PAD_IDX):
    _B, T = tgt.shape
    pad_m = (tgt == pad_idx)[:, None, None, :]
    causal = ~np.tril(np.ones((T, T), dtype=bool))[None, None]
    return pad_m | causal


def causal_mask(n_q, n_k=None):
    return _make_tgt_mask(np.zeros((1, n_q), dtype=int))


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]
    assert d_model % num_heads == 0, "d_model must be divisible by num_heads"
    d_k = d_model // num_heads
    use_scale = True
    query = key = value = X

    def _split(x):
        B, S, _ = x.shape
        return np.swapaxes(_view(x, (B, S, num_heads, d_k)), 1, 2)

    def _merge(x):
        B, _, S, _ = x.shape
        return _view(np.swapaxes(x, 1, 2), (B, S, d_model))

    Q = _split(_linear(query, W_Q, d_model, d_model))
    K = _split(_linear(key, W_K, d_model, d_model))
    V = _split(_linear(value, W_V, d_model, d_model))
    attn_out, _attn_w = scaled_dot_product_attention(Q, K, V, mask=mask, use_scale=use_scale)
    return _linear(_merge(attn_out), W_O, d_model, d_model)  # dropout: the identity at evaluation
