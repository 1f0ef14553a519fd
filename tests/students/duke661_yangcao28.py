"""Port of YangCao28/ECE661, HW3/attention.py (commit 2b2dc8e, March 2022): get_attention and
MultiHeadedAttention.forward, a student's solution (fall 2021) of Duke University's ECE 661 Computer Engineering
Machine Learning and Deep Neural Nets, homework 3, lab 2 "Implement Transformer's multi-head attention mechanism" (the
course's attention.py gives BERT-pytorch's MultiHeadedAttention.__init__; the students write forward, which the
course's transformer.py calls in TransformerBlock as `self.attention.forward(_x, _x, _x, mask=mask)`, and lab2.ipynb
trains the encoder for IMDB sentiment analysis).

Ports multi_head_attention (MultiHeadedAttention.forward on self-attention, query = key = value = X, over the
student's get_attention).

Conventions kept: the given __init__(h, d_model) asserts `d_model % h == 0`, sets `self.d_k = d_model // h` ("We
assume d_v always equals d_k") and builds `self.linear_layers = nn.ModuleList([nn.Linear(d_model, d_model) for _ in
range(3)])` and `self.output_linear = nn.Linear(d_model, d_model)`. The student's get_attention(query, key, value,
mask=None, dropout=None) computes `torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(d_k)` with `d_k =
query.size(-1)`, given a mask `mat.masked_fill(mask[mask == 0], -1e9)` (never reached: forward passes no mask), then
`F.softmax(mat, dim = -1)`, dropout, and returns `(torch.matmul(attention, value), attention)`. forward gives a mask
its head axis (`mask = mask.unsqueeze(1)`) but never passes it on; reads `batche_size = query.size(0)`; for each of
linear_layers and [query, key, value] runs the layer, `x.view(batche_size, -1, self.h, self.d_k)` and
`x.permute(0,2,1,3)`; calls `get_attention(query, key, value, dropout=self.dropout)` (no mask); then
`x.view(batche_size, -1, self.h*self.d_k)` straight from the (batch, h, seq, d_k) head outputs, with no permute back
(each output row mixes tokens and heads), and applies output_linear. A 2-D input (N, D) makes every token its own
sequence of one token (view(N, -1, h, d_k)); a 4-D one runs its second and third axes together as one sequence.

Left out: dropout (the identity at evaluation), the Linear layers' biases (zero here: the contract has none).
Added for the contract only: the module is MultiHeadedAttention(h=num_heads, d_model=X.shape[-1]) (TransformerBlock
builds it with d_model = hidden, the width of its input); W_Q, W_K, W_V and W_O are the weights of linear_layers[0],
[1], [2] and output_linear (x @ W for the Linear's x @ weight.T), loaded as load_state_dict would (it raises unless
each is (d_model, d_model)); self-attention passes X as query, key and value.
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


def _softmax_last(x):  # F.softmax(x, dim=-1)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def _get_attention(query, key, value, mask=None, dropout=None):
    d_k = query.shape[-1]
    mat = query @ np.swapaxes(key, -2, -1) / math.sqrt(d_k)
    if mask is not None:
        mask = np.asarray(mask)
        mat = np.where(mask[mask == 0], -1e9, mat)  # mat.masked_fill(mask[mask == 0], -1e9)
    attention = _softmax_last(mat)  # dropout: the identity at evaluation
    return attention @ value, attention


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    h, d_model = num_heads, X.shape[-1]
    assert d_model % h == 0
    d_k = d_model // h
    query = key = value = X

    if mask is not None:
        mask = np.expand_dims(np.asarray(mask), 1)  # mask.unsqueeze(1), never used
    batche_size = query.shape[0]
    new_storage = []
    for W, item in zip((W_Q, W_K, W_V), [query, key, value], strict=True):
        x = _linear(item, W, d_model, d_model)
        x = _view(x, (batche_size, -1, h, d_k))
        x = np.transpose(x, (0, 2, 1, 3))
        new_storage.append(x)
    query = new_storage[0]
    key = new_storage[1]
    value = new_storage[2]
    x, _attention = _get_attention(query, key, value)

    x = _view(x, (batche_size, -1, h * d_k))
    return _linear(x, W_O, d_model, d_model)
