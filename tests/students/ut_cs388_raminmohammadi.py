"""Port of ramin-mohammadi/NLP_Transformer_Language_Modeling, transformer.py (commit 542eb27):
TransformerLayer.forward's self-attention, a student's solution of UT Austin CS 388 (Natural Language Processing),
assignment 3 (Transformer for letter counting).

Conventions kept: "HERE DOING SINGLE-HEAD ATTENTION": `self.d_k = d_model` and `self.d_v = d_model` (one head, as
wide as the model: linear_q, linear_k, linear_v are nn.Linear(d_model, d_model)); forward first turns a 2-D input
into a batch of one (`if len(input_vecs.shape) == 2: input_vecs = input_vecs.unsqueeze(0)`, and never removes that
axis: the layer's caller squeezes it), then `torch.matmul(Q, K.transpose(-2, -1)) / np.sqrt(self.d_k)` (1/sqrt of the
model width), torch.softmax(dim=-1) and `torch.matmul(attn_map, V)`; "Possibly have a linear layer here but may only
be if doing multi-head attention, here doing single-head attention so skip": no output projection. The causal mask is
commented out: there is no mask. Left out: the residual connections, layer norms and feed-forward network after the
attention (the block's, not attention) and the Linear layers' biases. Added for the contract only: the projections
are W_Q, W_K and W_V (all their columns: the one head the student has, num_heads is never read); d_k = d_model is
X.shape[-1] (the constructor's argument); W_O and the mask are never read.
"""

import numpy as np


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_k = X.shape[-1]  # self.d_k = d_model
    if len(X.shape) == 2:
        X = X[None]  # unsqueeze(0)
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V
    scores = (Q @ np.swapaxes(K, -2, -1)) / np.sqrt(d_k)
    E = np.exp(scores - np.max(scores, axis=-1, keepdims=True))
    attn_map = E / np.sum(E, axis=-1, keepdims=True)
    return attn_map @ V
