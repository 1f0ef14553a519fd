"""Port of DNofulla/transformer-neural-model, transformer.py (commit 7c65ccf): TransformerLayer.forward's
self-attention, a student's solution of UT Austin CS 388 (Natural Language Processing), assignment 3 (Transformer for
letter counting).

Conventions kept: the layer has ONE attention head (query_layer, key_layer, value_layer: nn.Linear(model_dimension,
internal_dimension)) and an output projection (nn.Linear(internal_dimension, model_dimension)); forward reads
`sequence_length = input_vectors.size(0)` (the first axis: the sequence length of the course's unbatched (seq_len,
d) input), scales `torch.matmul(queries, keys.transpose(-2, -1)) / math.sqrt(key_dimension)` with key_dimension =
queries.size(-1), ALWAYS applies its own backward-only mask `torch.triu(torch.ones(sequence_length,
sequence_length), diagonal=1) == 1` with masked_fill(-inf) (there is no mask argument), then torch.softmax(dim=-1),
the values and the output projection. With leading batch axes the (size(0), size(0)) mask does not fit the (..., N,
N) scores. Left out: the residual connection and feed-forward network after the attention (the block's, not
attention) and the Linear layers' biases. Added for the contract only: the projections are W_Q, W_K, W_V and W_O
(all their columns: the one head the student has, num_heads is never read); the contract's mask is never read.
"""

import math

import numpy as np


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    sequence_length = X.shape[0]
    queries, keys, values = X @ W_Q, X @ W_K, X @ W_V
    key_dimension = queries.shape[-1]
    scores = (queries @ np.swapaxes(keys, -2, -1)) / math.sqrt(key_dimension)
    attention_mask = np.triu(np.ones((sequence_length, sequence_length)), k=1) == 1
    scores = np.where(attention_mask, -np.inf, scores)  # masked_fill: the mask must broadcast to the scores
    E = np.exp(scores - np.max(scores, axis=-1, keepdims=True))
    attention_weights = E / np.sum(E, axis=-1, keepdims=True)
    attention_output = attention_weights @ values
    return attention_output @ W_O
