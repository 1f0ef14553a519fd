"""Port of Libo1023/ECE661-CompEngML-DeepNeuralNets, Homework3/ECE661_2021F_HW3/attention.py (commit 87abb22; the same
file as Homework3/code/attention.py): MultiHeadedAttention.forward, a student's solution (fall 2021) of Duke
University's ECE 661 Computer Engineering Machine Learning and Deep Neural Nets, homework 3, lab 2 "Implement
Transformer's multi-head attention mechanism" (the course's attention.py gives BERT-pytorch's
MultiHeadedAttention.__init__; the students write forward, which the course's transformer.py calls in TransformerBlock
as `self.attention.forward(_x, _x, _x, mask=mask)`, and lab2.ipynb trains the encoder for IMDB sentiment analysis).

Ports multi_head_attention (MultiHeadedAttention.forward on self-attention, query = key = value = X).

Conventions kept: the given __init__(h, d_model) asserts `d_model % h == 0`, sets `self.d_k = d_model // h` ("We
assume d_v always equals d_k") and builds `self.linear_layers = nn.ModuleList([nn.Linear(d_model, d_model) for _ in
range(3)])` and `self.output_linear = nn.Linear(d_model, d_model)`. The student's forward ignores `mask` (the
skeleton's docstring: "Just pass None to mask. No need to handle it specifically."), reads `batch_size =
value.size(0)`, `sequence_length = value.size(1)` and `hidden_dim = value.size(2)` (3-D input only), permutes query,
key and value to [sequence length, batch size, hidden dim] (`query.permute(1, 0, 2)`), applies linear_layers[0], [1]
and [2], views each as `(sequence_length, batch_size, self.h, self.d_k)` and permutes it to (batch, h, seq, d_k)
(`.permute(1, 2, 0, 3)`), computes `torch.matmul(query_matrix, key_matrix.permute(0, 1, 3, 2))` divided by
`float(self.d_k ** (0.5))`, `torch.softmax(attention_scores, dim = -1)`, dropout, `torch.matmul(dropout_weights,
value_matrix)`, permutes the heads to (seq, batch, h, d_k) (`out.permute(2, 0, 1, 3)`), views them as
`(sequence_length, batch_size, hidden_dim)` (the input's width), permutes back to (batch, seq, hidden) and applies
output_linear.

Left out: dropout (the identity at evaluation), the Linear layers' biases (zero here: the contract has none).
Added for the contract only: the module is MultiHeadedAttention(h=num_heads, d_model=X.shape[-1]) (TransformerBlock
builds it with d_model = hidden, the width of its input); W_Q, W_K, W_V and W_O are the weights of linear_layers[0],
[1], [2] and output_linear (x @ W for the Linear's x @ weight.T), loaded as load_state_dict would (it raises unless
each is (d_model, d_model)); self-attention passes X as query, key and value.
"""

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


def _softmax_last(x):  # torch.softmax(x, dim=-1)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    h, d_model = num_heads, X.shape[-1]
    assert d_model % h == 0
    d_k = d_model // h
    query = key = value = X

    batch_size = value.shape[0]
    sequence_length = value.shape[1]
    hidden_dim = value.shape[2]

    query_sbh = np.transpose(query, (1, 0, 2))
    key_sbh = np.transpose(key, (1, 0, 2))
    value_sbh = np.transpose(value, (1, 0, 2))

    fc_query = _linear(query_sbh, W_Q, d_model, d_model)
    fc_key = _linear(key_sbh, W_K, d_model, d_model)
    fc_value = _linear(value_sbh, W_V, d_model, d_model)

    query_dim = _view(fc_query, (sequence_length, batch_size, h, d_k))
    key_dim = _view(fc_key, (sequence_length, batch_size, h, d_k))
    value_dim = _view(fc_value, (sequence_length, batch_size, h, d_k))

    query_matrix = np.transpose(query_dim, (1, 2, 0, 3))
    key_matrix = np.transpose(key_dim, (1, 2, 0, 3))
    value_matrix = np.transpose(value_dim, (1, 2, 0, 3))

    attention_scores = query_matrix @ np.transpose(key_matrix, (0, 1, 3, 2))
    attention_scores = attention_scores / float(d_k ** (0.5))
    attention_weights = _softmax_last(attention_scores)

    out = attention_weights @ value_matrix  # dropout: the identity at evaluation
    out = np.transpose(out, (2, 0, 1, 3))
    out = _view(out, (sequence_length, batch_size, hidden_dim))
    out = np.transpose(out, (1, 0, 2))
    return _linear(out, W_O, d_model, d_model)
