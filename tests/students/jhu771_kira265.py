"""Port of Kira265/advances-self-supervised-models, self_attention_profiling/profile_self_attention.py (commit
888a322): SelfAttention.forward, a student's solution of Johns Hopkins CS 601.471/671/771 (Advanced Self-Supervised
Statistical NLP), homework 1, question 1 (profiling self-attention: the students write their own self-attention
layer).

Ports scaled_dot_product_attention (the attention of SelfAttention.forward, after its three projections).

Conventions kept: `attn = torch.matmul(q, k.transpose(-2, -1) / (q.size(-1) ** 0.5))` (the keys divided by
sqrt(d_k) before the product: the usual scale), `attn = torch.softmax(attn, dim=-1)` and `return torch.matmul(attn,
v)`: one head, any leading axes, no mask, no scale argument, only the output returned.
Left out: the layers' biases (`nn.Linear(dim, dim)`: zero here, the contract's projections have none) and the
profiling code. Added for the contract only: Q, K, V are given (the projections are qkv_project's), the function
returns (output, attention weights) and takes `mask` and `scale` parameters that are never read.
"""

import numpy as np


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    attn = np.matmul(Q, np.swapaxes(K, -2, -1) / (Q.shape[-1] ** 0.5))
    E = np.exp(attn - np.max(attn, axis=-1, keepdims=True))  # torch.softmax(attn, dim=-1)
    attn = E / np.sum(E, axis=-1, keepdims=True)
    return np.matmul(attn, V), attn
