"""Port of KookHoiKim/NLP_assignment, assign3/model.py (commit 4ff94b8, "not finished assn3", 17 June 2020; the commit
that also adds the student's submission archive assign3_KookhoiKim_20203047.zip): dot_scaled_attention and
MultiHeadAttention.forward, a student's solution of KAIST's AI605 Deep Learning for NLP (spring 2020), assignment 3 (a
small BERT pre-trained with masked language modelling and next-sentence prediction, then fine-tuned on IMDB: the
course's model.py gives the signatures, docstrings, asserts and the MultiHeadAttention initializer, and the students
fill in the "YOUR CODE HERE (~4 lines)" of dot_scaled_attention, the "(~6 lines)" of MultiHeadAttention.forward and the
TransformerEncoderBlock).

Ports scaled_dot_product_attention (dot_scaled_attention) and multi_head_attention (MultiHeadAttention.forward, which
calls it).

Conventions kept (the course's, as its docstrings fix them): every tensor is time-major, (sequence_length, batch_size,
d): dot_scaled_attention(query, key, value, padding_mask) asserts `query.shape == key.shape == value.shape` ("we will
use only Transformer's encoder, all of input tensors have same shape"), `padding_mask.shape == query.shape[:2]` and that
the padding mask (True for <PAD>) is exactly the rows of zeros of query, key and value, reads `_, _, d_k = query_shape`
(3-D only), and after the student's lines sets the output of every <PAD> position to zero; the student computes
`torch.bmm(query.permute(1, 0, 2), key.permute(1, 2, 0)) / math.sqrt(d_k)` (one (L, L) score matrix per batch column),
`scores[padding_mask.T.unsqueeze(1).expand(scores.shape)] = float('-inf')` (the padded keys, under `if padding_mask is
not None`), `scores.softmax(-1)` and `torch.bmm(p_attn, value.permute(1, 0, 2)).permute(1, 0, 2)`.
MultiHeadAttention(hidden_dim, n_head) (the course's initializer) asserts `hidden_dim % n_head == 0`, sets `self.d_k =
hidden_dim // n_head` and four bias-free layers `nn.Linear(hidden_dim, n_head * d_k)` (V, K, Q) and `nn.Linear(n_head *
d_k, hidden_dim)` (O); forward(value, key, query, padding_mask) asserts the three inputs share one shape, reads
`seq_length, batch_size, hidden_dim = input_shape` (3-D only), and the student's lines project each input and view it as
`(seq_length, batch_size, n_head, d_k)` transposed to (seq_length, n_head, batch_size, d_k), call dot_scaled_attention
on these reshaped to `(seq_length, batch_size * n_head, d_k)` with `padding_mask.repeat(1, self.n_head)`, view the
result as `(seq_length, n_head, batch_size, d_k)`, transpose it back, reshape to `(seq_length, batch_size, -1)` and
apply O_linear.

Left out: float32 arithmetic, autograd, the commented-out pdb call. Added for the contract only:
scaled_dot_product_attention(Q, K, V, mask, scale) passes Q, K and V to dot_scaled_attention as they come (the course
reads them as (sequence_length, batch_size, d)), with the course's padding mask of those inputs, `(Q == 0).all(-1)`
(what the course's asserts demand: True for a row of zeros, none in the contract's data), returns (output, the student's
softmax) and never reads `mask` (the course's attention takes only a padding mask) or `scale`; multi_head_attention(X,
W_Q, W_K, W_V, W_O, num_heads, mask) is MultiHeadAttention(hidden_dim = X.shape[-1], n_head = num_heads).forward(X, X,
X, (X == 0).all(-1)) (the encoder block passes x as value, key and query with the model's padding mask, which the block
asserts is the rows of zeros of x) with W_V, W_K, W_Q and W_O as the layers' weights (x @ W for the Linear's x @
weight.T: a weight of another shape than its layer's raises, as copying it into the layer does); the contract's mask is
never read.
"""

import math

import numpy as np


def _softmax(x, axis):  # torch's softmax: an all -inf slice is -inf - (-inf) = NaN
    E = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return E / np.sum(E, axis=axis, keepdims=True)


def _linear(x, W, in_features, out_features):  # nn.Linear(in_features, out_features, bias=False) holding W.T
    W = np.asarray(W)
    if W.shape != (in_features, out_features):
        raise RuntimeError(f"size mismatch: weight of shape {W.T.shape} for nn.Linear({in_features}, "
                           f"{out_features}), whose weight is {(out_features, in_features)}")
    return x @ W


def _dot_scaled_attention(query, key, value, padding_mask):
    # Because we will use only Transformer's encoder, all of input tensors have same shape
    assert query.shape == key.shape == value.shape
    assert padding_mask.shape == query.shape[:2]
    query_shape = query.shape
    _, _, d_k = query_shape
    # All vlues in last dimension (d_k dimension) are zeros for <PAD> location
    assert (padding_mask == (query == 0.).all(-1)).all()
    assert (padding_mask == (key == 0.).all(-1)).all()
    assert (padding_mask == (value == 0.).all(-1)).all()

    scores = np.transpose(query, (1, 0, 2)) @ np.transpose(key, (1, 2, 0)) / math.sqrt(d_k)
    if padding_mask is not None:
        scores[np.broadcast_to(padding_mask.T[:, None, :], scores.shape)] = -np.inf
    p_attn = _softmax(scores, axis=-1)
    attention = np.transpose(p_attn @ np.transpose(value, (1, 0, 2)), (1, 0, 2)).copy()

    # Don't forget setting attention result of <PAD> to zeros.
    attention[padding_mask, :] = 0.

    assert attention.shape == query_shape
    return attention, p_attn


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    Q, K, V = (np.asarray(M) for M in (Q, K, V))
    padding_mask = (Q == 0.).all(-1)  # True for <PAD>: the course's rows of zeros
    return _dot_scaled_attention(Q, K, V, padding_mask)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    hidden_dim, n_head = X.shape[-1], num_heads
    assert hidden_dim % n_head == 0
    d_k = hidden_dim // n_head

    value = key = query = np.asarray(X)
    padding_mask = (query == 0.).all(-1)
    assert value.shape == key.shape == query.shape
    assert padding_mask.shape == query.shape[:2]
    input_shape = value.shape
    seq_length, batch_size, hidden_dim = input_shape

    def heads(x, W):  # self.X_linear(x).view(seq_length, batch_size, self.n_head, self.d_k).transpose(1, 2)
        return np.swapaxes(_linear(x, W, hidden_dim, n_head * d_k).reshape(seq_length, batch_size, n_head, d_k), 1, 2)

    value = heads(value, W_V)
    key = heads(key, W_K)
    query = heads(query, W_Q)

    attention, _ = _dot_scaled_attention(query.reshape(seq_length, batch_size * n_head, d_k),
                                         key.reshape(seq_length, batch_size * n_head, d_k),
                                         value.reshape(seq_length, batch_size * n_head, d_k),
                                         np.tile(padding_mask, (1, n_head)))
    attention = np.swapaxes(attention.reshape(seq_length, n_head, batch_size, d_k), 1, 2)

    attention = _linear(attention.reshape(seq_length, batch_size, -1), W_O, n_head * d_k, hidden_dim)

    assert attention.shape == input_shape
    return attention
