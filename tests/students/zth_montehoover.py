"""Port of montehoover/ng-video-lecture, model.py (commit d0c4cc1): AttentionHead and MultiHeadAttention, a student's
own transformer written while following Andrej Karpathy's "Neural Networks: Zero to Hero" course (lecture 7,
"Let's build GPT: from scratch, in code, spelled out"), in the student's fork of the course's repository (next to the
lecture's v2.py and the student's notes).

Ports multi_head_attention.

Conventions kept: MultiHeadAttention(num_heads, d_model) sets `d_head = d_model // num_heads` and builds num_heads
`AttentionHead(d_model, d_head)` whose queries, keys AND values layers are `nn.Linear(d_model, d_head, bias=False)`,
and `self.linear = nn.Linear(d_model, d_model)`; AttentionHead.forward computes `Q = self.queries(X)`, `K =
self.keys(X)`, `V = self.values(X)`, then `A = Q @ K.T(-2, -1)`: `K.T` is the tensor's transposed VIEW (a property),
which the student calls as if it were `K.transpose`, so every call raises TypeError ('Tensor' object is not
callable) before the rest, `A = A / torch.sqrt(self.d_model)` (the model width, an int: torch.sqrt would raise too),
`torch.softmax(A, dim=-1)`, dropout, `A @ V`, is never reached. The attention has no mask (no argument, no causal
mask). Left out: dropout. Added for the contract only: d_model is X.shape[-1] (the constructor's argument), head h's
layers are columns [h * d_head, (h + 1) * d_head) of W_Q, W_K and W_V, W_O is linear, and a `mask` parameter that is
never read.
"""

import numpy as np


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]
    d_head = d_model // num_heads

    def attention_head(h):
        cols = slice(h * d_head, (h + 1) * d_head)
        Q = X @ W_Q[:, cols]
        K = X @ W_K[:, cols]
        V = X @ W_V[:, cols]
        A = Q @ K.T(-2, -1)  # K.T is an array, not a method: TypeError, as torch's Tensor.T is
        A = A / np.sqrt(d_model)
        E = np.exp(A - np.max(A, axis=-1, keepdims=True))
        A = E / np.sum(E, axis=-1, keepdims=True)
        return A @ V

    heads_outputs = [attention_head(h) for h in range(num_heads)]
    outputs_concated = np.concatenate(heads_outputs, axis=-1)
    return outputs_concated @ W_O
