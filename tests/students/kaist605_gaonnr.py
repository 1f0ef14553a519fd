"""Port of GAONNR/AI605-DLforNLP, assign3/model.py (commit 86db3ad, "Finish assign 3", 11 May 2020):
dot_scaled_attention and MultiHeadAttention.forward, a student's solution of KAIST's AI605 Deep Learning for NLP (spring
2020), assignment 3 (a small BERT pre-trained with masked language modelling and next-sentence prediction, then
fine-tuned on IMDB: the course's model.py gives the signatures, docstrings, asserts and the MultiHeadAttention
initializer, and the students fill in the "YOUR CODE HERE (~4 lines)" of dot_scaled_attention, the "(~6 lines)" of
MultiHeadAttention.forward and the TransformerEncoderBlock).

Ports scaled_dot_product_attention (dot_scaled_attention) and multi_head_attention (MultiHeadAttention.forward, which
calls it).

Conventions kept (the course's, as its docstrings fix them): every tensor is time-major, (sequence_length, batch_size,
d): dot_scaled_attention(query, key, value, padding_mask) asserts `query.shape == key.shape == value.shape` ("we will
use only Transformer's encoder, all of input tensors have same shape"), `padding_mask.shape == query.shape[:2]` and that
the padding mask (True for <PAD>) is exactly the rows of zeros of query, key and value, reads `_, _, d_k = query_shape`
(3-D only), and after the student's lines sets the output of every <PAD> position to zero; the student computes
`torch.bmm(query.permute(1, 0, 2), key.permute(1, 2, 0)) / math.sqrt(d_k)` (one (L, L) score matrix per batch column),
permutes it to (batch, key, query), sets `scaled_qk[padding_mask.permute(1, 0)] = float('-inf')` (the padded keys),
permutes back, `F.softmax(scaled_qk, dim=2)` and `torch.bmm(softmax_qk, value.permute(1, 0, 2)).permute(1, 0, 2)`.
MultiHeadAttention(hidden_dim, n_head) (the course's initializer) asserts `hidden_dim % n_head == 0`, sets `self.d_k =
hidden_dim // n_head` and four bias-free layers `nn.Linear(hidden_dim, n_head * d_k)` (V, K, Q) and `nn.Linear(n_head *
d_k, hidden_dim)` (O); forward(value, key, query, padding_mask) asserts the three inputs share one shape, reads
`seq_length, batch_size, hidden_dim = input_shape` (3-D only), and the student's lines project, reshape each projection
to `(seq_length, batch_size * n_head, d_k)`, repeat the padding mask `torch.repeat_interleave( padding_mask,
self.n_head, dim=1)`, call dot_scaled_attention, reshape to `(seq_length, batch_size, n_head * d_k)` and apply O_linear.

Left out: float32 arithmetic, autograd. Added for the contract only: scaled_dot_product_attention(Q, K, V, mask, scale)
passes Q, K and V to dot_scaled_attention as they come (the course reads them as (sequence_length, batch_size, d)), with
the course's padding mask of those inputs, `(Q == 0).all(-1)` (what the course's asserts demand: True for a row of
zeros, none in the contract's data), returns (output, the student's softmax) and never reads `mask` (the course's
attention takes only a padding mask) or `scale`; multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask) is
MultiHeadAttention(hidden_dim = X.shape[-1], n_head = num_heads).forward(X, X, X, (X == 0).all(-1)) (the encoder block
passes x as value, key and query with the model's padding mask, which the block asserts is the rows of zeros of x) with
W_V, W_K, W_Q and W_O as the layers' weights (x @ W for the Linear's x @ weight.T: a weight of another shape than its
layer's raises, as copying it into the layer does); the contract's mask is never read.
"""

import math

import numpy as np


def _softmax(x, axis):  # F.softmax: an all -inf slice is -inf - (-inf) = NaN
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

    scaled_qk = np.transpose(query, (1, 0, 2)) @ np.transpose(key, (1, 2, 0)) / math.sqrt(d_k)
    scaled_qk = np.transpose(scaled_qk, (0, 2, 1)).copy()
    scaled_qk[np.transpose(padding_mask, (1, 0))] = -np.inf
    scaled_qk = np.transpose(scaled_qk, (0, 2, 1))
    softmax_qk = _softmax(scaled_qk, axis=2)
    attention = np.transpose(softmax_qk @ np.transpose(value, (1, 0, 2)), (1, 0, 2)).copy()

    # Don't forget setting attention result of <PAD> to zeros.
    attention[padding_mask, :] = 0.

    assert attention.shape == query_shape
    return attention, softmax_qk


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

    lin_Vs = _linear(value, W_V, hidden_dim, n_head * d_k).reshape(seq_length, batch_size * n_head, d_k)
    lin_Ks = _linear(key, W_K, hidden_dim, n_head * d_k).reshape(seq_length, batch_size * n_head, d_k)
    lin_Qs = _linear(query, W_Q, hidden_dim, n_head * d_k).reshape(seq_length, batch_size * n_head, d_k)
    repeated_paddings = np.repeat(padding_mask, n_head, axis=1)

    attention, _ = _dot_scaled_attention(lin_Qs, lin_Ks, lin_Vs, repeated_paddings)
    attention = _linear(attention.reshape(seq_length, batch_size, n_head * d_k), W_O, n_head * d_k, hidden_dim)

    assert attention.shape == input_shape
    return attention
