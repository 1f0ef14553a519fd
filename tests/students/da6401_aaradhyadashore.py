"""Port of AaradhyaDashore/da6401_assignment_3, model.py (commit a97e5fb, May 2026): scaled_dot_product_attention,
make_tgt_mask and MultiHeadAttention, a student's solution of IIT Madras DA6401 Introduction to Deep Learning (Jan-May
2026), assignment 3 "Attention Is All You Need" (a Transformer for German-English translation on Multi30k: the course's
skeleton, model.py, fixes the signatures of scaled_dot_product_attention(Q, K, V, mask) -> (out, weights),
make_src_mask, make_tgt_mask and MultiHeadAttention.forward(query, key, value, mask), gives
MultiHeadAttention.__init__'s `assert d_model % num_heads == 0` and `self.d_k = d_model // num_heads`, and says that a
mask is True where a position is MASKED OUT; the students write the bodies).

Ports scaled_dot_product_attention, causal_mask (make_tgt_mask) and multi_head_attention (MultiHeadAttention.forward on
self-attention, query = key = value = X).

Conventions kept: scaled_dot_product_attention(Q, K, V, mask=None) divides `torch.matmul(Q, K.transpose(-2, -1))` by
`math.sqrt(dim_k)` with `dim_k = Q.size(-1)`, applies `attention_logits.masked_fill(mask, float('-inf'))` (the course's
convention: True = masked out; out of place, so mask and scores broadcast), `torch.softmax(attention_logits, dim=-1)`
(an all -inf row is NaN) and returns `(torch.matmul(attention_probs, V), attention_probs)`; it has no scale argument.
make_tgt_mask(tgt, pad_idx=1) reads `batch_dim, seq_len = tgt.shape`, builds the padding mask `(tgt ==
pad_idx).unsqueeze(1).unsqueeze(2)` ([B, 1, 1, T]) and `torch.triu(torch.ones((seq_len, seq_len)), diagonal=1).bool()`
made [1, 1, T, T] with two unsqueeze(0), and returns their OR, [B, 1, T, T], True = masked (PAD or future token).
MultiHeadAttention(d_model, num_heads) keeps the skeleton's assert and `self.head_dim = d_model // num_heads`, builds
four `nn.Linear(d_model, d_model)` layers (query_proj, key_proj, value_proj, out_proj); forward reads `batch_size =
query.size(0)`, projects, `view(batch_size, -1, self.num_heads, self.head_dim).transpose(1, 2)` for q, k and v (the
input is read as (B, N, D): a 2-D input makes each token a sequence of its own, a 4-D one runs two axes together), `mask
= mask.expand(-1, self.num_heads, -1, -1)` when a mask is given (torch's expand cannot give -1 to an axis it adds, so
only a 4-D mask whose second axis is 1 or num_heads gets past), calls scaled_dot_product_attention, then `transpose(1,
2).contiguous().view(batch_size, -1, self.d_model)` and out_proj.

Left out: dropout (built, never applied in forward), the Linear layers' biases (zero here: the contract has none). Added
for the contract only: scaled_dot_product_attention takes a `scale` parameter (never read); causal_mask(n_q, n_k) is
make_tgt_mask on a (1, n_q) row of non-pad tokens (index 0; n_k has no counterpart); multi_head_attention is
MultiHeadAttention(d_model=X.shape[-1], num_heads) with W_Q, W_K, W_V and W_O the weights of query_proj, key_proj,
value_proj and out_proj (x @ W for the Linear's x @ weight.T), loaded as load_state_dict would (it raises unless each is
(d_model, d_model)), and the contract's mask passed as the student's.
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


def _expand(t, sizes):  # torch.Tensor.expand: -1 keeps an existing axis; an added leading axis cannot be -1
    t = np.asarray(t)
    lead = len(sizes) - t.ndim
    if lead < 0:
        raise RuntimeError("the number of sizes provided must be greater or equal to the number of dimensions")
    shape = []
    for i, size in enumerate(sizes):
        if i < lead:
            if size == -1:
                raise RuntimeError(f"The expanded size of the tensor (-1) isn't allowed in a leading, non-existing "
                                   f"dimension {i}")
            shape.append(size)
        else:
            old = t.shape[i - lead]
            if size == -1:
                shape.append(old)
            elif old not in (1, size):
                raise RuntimeError(f"The expanded size of the tensor ({size}) must match the existing size ({old}) "
                                   f"at non-singleton dimension {i}")
            else:
                shape.append(size)
    return np.broadcast_to(t, shape)


def _softmax_last(x):  # torch.softmax(x, dim=-1): an all -inf row is NaN
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    dim_k = Q.shape[-1]
    attention_logits = (Q @ np.swapaxes(K, -2, -1)) / math.sqrt(dim_k)
    if mask is not None:
        attention_logits = np.where(mask, -np.inf, attention_logits)  # masked_fill(mask, -inf): True = masked out
    attention_probs = _softmax_last(attention_logits)
    context_output = attention_probs @ V
    return context_output, attention_probs


def _make_tgt_mask(tgt, pad_idx=PAD_IDX):
    _batch_dim, seq_len = tgt.shape
    padding_mask = (tgt == pad_idx)[:, None, None, :]
    future_mask = np.triu(np.ones((seq_len, seq_len)), k=1).astype(bool)
    future_mask = future_mask[None, None]
    return padding_mask | future_mask


def causal_mask(n_q, n_k=None):
    return _make_tgt_mask(np.zeros((1, n_q), dtype=int))


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]
    assert d_model % num_heads == 0, "d_model must be divisible by num_heads"
    head_dim = d_model // num_heads
    query = key = value = X

    batch_size = query.shape[0]
    q = _linear(query, W_Q, d_model, d_model)
    k = _linear(key, W_K, d_model, d_model)
    v = _linear(value, W_V, d_model, d_model)

    q = np.swapaxes(_view(q, (batch_size, -1, num_heads, head_dim)), 1, 2)
    k = np.swapaxes(_view(k, (batch_size, -1, num_heads, head_dim)), 1, 2)
    v = np.swapaxes(_view(v, (batch_size, -1, num_heads, head_dim)), 1, 2)

    if mask is not None:
        mask = _expand(mask, (-1, num_heads, -1, -1))

    attended_values, _attn_weights = scaled_dot_product_attention(q, k, v, mask)
    attended_values = _view(np.swapaxes(attended_values, 1, 2), (batch_size, -1, d_model))
    return _linear(attended_values, W_O, d_model, d_model)
