"""Port of xxueewa/languagemodel_impl, transformer.py (commit 4c1fc9a): TransformerLayer.attention, a student's solution
of UT Austin CS 388 (Natural Language Processing), assignment 3 (Transformer for letter counting).

Conventions kept: `attention(query, key, value)` takes the projected queries, keys and values and computes `q_kt =
torch.matmul(query, key.transpose(1, 0))` (axes 0 and 1: only 2-D (seq_len, d) inputs, as the course's unbatched
examples are), `torch.nn.functional.softmax(q_kt / math.sqrt(self.d_k), dim=0)` with `self.d_k = 100` (a constant,
not the queries' width) on axis 0 (each KEY's column sums to 1, over the queries), then `torch.matmul(softmax_result,
value)`. There is no mask and no scale argument. Added for the contract only: (out, weights) is returned, with the
weights the student multiplies the values by (the layer's forward returns another, unscaled attention map), and a
`mask` and a `scale` parameter (never read) so that the contract's calls reach the student's code.
"""

import math

import numpy as np

D_K = 100  # self.d_k = 100 in TransformerLayer.__init__


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    q_kt = Q @ np.swapaxes(K, 1, 0)
    S = q_kt / math.sqrt(D_K)
    E = np.exp(S - np.max(S, axis=0, keepdims=True))
    softmax_result = E / np.sum(E, axis=0, keepdims=True)
    return softmax_result @ V, softmax_result
