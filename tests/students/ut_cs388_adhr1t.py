"""Port of adhr1t/Transformer, transformer.py (commit 24a0fd5): TransformerLayer.attention, a student's solution of
UT Austin CS 388 (Natural Language Processing), assignment 3 (Transformer for letter counting).

Conventions kept: the layer has ONE attention head (`q_linear`, `k_linear`: nn.Linear(d_model, d_internal),
`v_linear`: nn.Linear(d_model, d_model)); `attention(queries, keys, values, d_model)` projects, computes
`torch.matmul(q, k.T) / np.sqrt(d_model)` (`.T` reverses every axis: only a 2-D (seq_len, d) input works, as the
course's unbatched examples are; and the scale is 1/sqrt of the model width d_model, the input's width, not of the
queries' d_internal), `nn.functional.softmax(attn_scores, dim=-1)` and `torch.matmul(attn_weights, v)`, and returns
that: there is no output projection (the layer's forward adds the residual and the feed-forward after it). There is no
mask (the commented-out `# if mask is not None:` is never run). Left out: the residual connection and feed-forward of
the layer's forward (the block's, not attention) and the Linear layers' biases. Added for the contract only: the
projections are W_Q, W_K and W_V (all their columns: the one head the student has, num_heads is never read); d_model
is X.shape[-1]; W_O is never read.
"""

import numpy as np


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]
    q, k, v = X @ W_Q, X @ W_K, X @ W_V
    attn_scores = (q @ k.T) / np.sqrt(d_model)
    E = np.exp(attn_scores - np.max(attn_scores, axis=-1, keepdims=True))
    attn_weights = E / np.sum(E, axis=-1, keepdims=True)
    return attn_weights @ v
