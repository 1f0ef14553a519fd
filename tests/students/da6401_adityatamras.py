"""Port of AdityaTamras/DA6401-A3-BE22B007, model.py (commit 19c9c57, May 2026): scaled_dot_product_attention,
make_tgt_mask and MultiHeadAttention, a student's solution of IIT Madras DA6401 Introduction to Deep Learning (Jan-May
2026), assignment 3 "Attention Is All You Need" (a Transformer for German-English translation on Multi30k: the course's
skeleton, model.py, fixes the signatures of scaled_dot_product_attention(Q, K, V, mask) -> (out, weights),
make_src_mask, make_tgt_mask and MultiHeadAttention.forward(query, key, value, mask), gives
MultiHeadAttention.__init__'s `assert d_model % num_heads == 0` and `self.d_k = d_model // num_heads`, and says that a
mask is True where a position is MASKED OUT; the students write the bodies).

Ports scaled_dot_product_attention, causal_mask (make_tgt_mask) and multi_head_attention (MultiHeadAttention.forward on
self-attention, query = key = value = X).

Conventions kept: scaled_dot_product_attention(Q, K, V, mask=None) divides `torch.matmul(Q, K.transpose(-2, -1))` by
`torch.sqrt(torch.tensor(d_k, dtype=torch.float32))` with `d_k = Q.size(-1)` (a float32 square root: the same value to
float32 precision), applies `raw_scores.masked_fill(mask, -float('inf'))` (the course's convention: True = masked out;
out of place, so mask and scores broadcast), `F.softmax(raw_scores, dim=-1)` (an all -inf row is NaN) and returns
`(torch.matmul(attn_weights, V), attn_weights)`; it has no scale argument. make_tgt_mask(tgt, pad_idx=1) reads `tgt_len
= tgt.size(-1)`, ORs the padding mask `(tgt == pad_idx).unsqueeze(1).unsqueeze(1)` ([B, 1, 1, T]) with `~torch.tril(
torch.ones(tgt_len, tgt_len, dtype=torch.bool))` ([T, T]) and returns [B, 1, T, T], True = masked (PAD or future token).
MultiHeadAttention(d_model, num_heads) keeps the skeleton's assert and `self.d_k = d_model // num_heads`, builds four
`nn.Linear(d_model, d_model)` layers (W_q, W_k, W_v, W_o); forward reads `batch_size = query.size(0)`, projects,
`view(batch_size, -1, self.num_heads, self.d_k)` then `transpose(1, 2)` for q, k and v (the input is read as (B, N, D):
a 2-D input makes each token a sequence of its own, a 4-D one runs two axes together), calls
scaled_dot_product_attention with the mask as given (a (B, N, N) mask meets the (B, H, N, N) scores without a head
axis), then `transpose(1, 2)`, `contiguous().view(batch_size, -1, self.d_model)` and W_o.

Left out: dropout (built, never applied in forward), the Linear layers' biases (zero here: the contract has none). Added
for the contract only: scaled_dot_product_attention takes a `scale` parameter (never read); causal_mask(n_q, n_k) is
make_tgt_mask on a (1, n_q) row of non-pad tokens (index 0; n_k has no counterpart); multi_head_attention is
MultiHeadAttention(d_model=X.shape[-1], num_heads) with W_Q, W_K, W_V and W_O the weights of W_q, W_k, W_v and W_o (x @
W for the Linear's x @ weight.T), loaded as load_state_dict would (it raises unless each is (d_model, d_model)), and the
contract's mask passed as the student's.
"""

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


def _softmax_last(x):  # F.softmax(x, dim=-1): an all -inf row is NaN
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    d_k = Q.shape[-1]
    raw_scores = (Q @ np.swapaxes(K, -2, -1)) / float(np.sqrt(np.float32(d_k)))
    if mask is not None:
        raw_scores = np.where(mask, -np.inf, raw_scores)  # masked_fill(mask, -inf): True = masked out
    attn_weights = _softmax_last(raw_scores)
    outputs = attn_weights @ V
    return outputs, attn_weights


def _make_tgt_mask(tgt, pad_idx=PAD_IDX):
    tgt_len = tgt.shape[-1]
    padding_mask = (tgt == pad_idx)[:, None, None, :]
    causal = ~np.tril(np.ones((tgt_len, tgt_len), dtype=bool))
    return padding_mask | causal


def causal_mask(n_q, n_k=None):
    return _make_tgt_mask(np.zeros((1, n_q), dtype=int))


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]
    assert d_model % num_heads == 0, "d_model must be divisible by num_heads"
    d_k = d_model // num_heads
    query = key = value = X

    batch_size = query.shape[0]
    q = _linear(query, W_Q, d_model, d_model)
    k = _linear(key, W_K, d_model, d_model)
    v = _linear(value, W_V, d_model, d_model)

    q = np.swapaxes(_view(q, (batch_size, -1, num_heads, d_k)), 1, 2)
    k = np.swapaxes(_view(k, (batch_size, -1, num_heads, d_k)), 1, 2)
    v = np.swapaxes(_view(v, (batch_size, -1, num_heads, d_k)), 1, 2)

    attn_output, _attn_weights = scaled_dot_product_attention(q, k, v, mask)
    attn_output = _view(np.swapaxes(attn_output, 1, 2), (batch_size, -1, d_model))
    return _linear(attn_output, W_O, d_model, d_model)
