"""Port of ethan-harper81/685_hw2, transformer.py (commit 66fa0c3): TransformerLayer.forward's self-attention, a
student's solution of UMass Amherst COMPSCI 685 (Advanced Natural Language Processing), homework 2 (a Transformer for
letter counting).

Conventions kept: the layer has ONE attention head (query, key: nn.Linear(d_model, d_internal); value:
nn.Linear(d_model, self.d_value) with d_value = d_internal); forward computes `torch.matmul(querys, keys.T) /
np.sqrt(self.d_value)` ("divide by d_value for stability": 1/sqrt of the VALUES' width; `.T` reverses every axis, so
only a 2-D (seq_len, d) input works, as the course's unbatched examples are), `torch.softmax(intermediate, dim = 1)`
and `torch.matmul(intermediate, values)`: no output projection (a feed-forward follows). There is no mask. Left out:
the residual connections and feed-forward after the attention (the block's, not attention) and the Linear layers'
biases. Added for the contract only: the projections are W_Q, W_K and W_V (all their columns: the one head the
student has, num_heads is never read); d_value is W_V.shape[-1]; W_O and the mask are never read.
"""

import numpy as np


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_value = W_V.shape[-1]
    querys, keys, values = X @ W_Q, X @ W_K, X @ W_V
    intermediate = (querys @ keys.T) / np.sqrt(d_value)
    E = np.exp(intermediate - np.max(intermediate, axis=1, keepdims=True))
    intermediate = E / np.sum(E, axis=1, keepdims=True)
    return intermediate @ values
