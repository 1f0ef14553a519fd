"""Port of ZXZ-math/Mini-GPT, model.py (commit 68eab7d): SingleHeadAttention and MultiHeadAttention, a student's
solution of UCLA ECE 239AS (spring 2024), project 3 "Language modelling and Transformers" (a MiniGPT trained on
TinyStories, filled into the course's starter model.py; the README: "project from a graduate class at UCLA"). Ports
multi_head_attention.

Conventions kept: MultiHeadAttention(input_dim, num_heads) builds `SingleHeadAttention(input_dim = input_dim,
output_key_query_dim=input_dim//num_heads, output_value_dim = input_dim//num_heads)` for each head (the queries', keys'
AND values' heads are all input_dim // num_heads wide) and `self.out = nn.Linear(input_dim, input_dim,bias=True)`;
forward concatenates the heads' outputs, `torch.cat(head_output,dim=-1)`, and applies out. SingleHeadAttention.forward
reads `num_tokens = x.size(1)`, computes `prod = torch.matmul(Q,torch.transpose(K,1,2))` (axes 1 and 2: 3-D input
only), builds a fresh `torch.zeros((num_tokens, num_tokens)) + torch.triu(torch.full((num_tokens, num_tokens),
float('-inf')), diagonal=1)` in every call and adds it to the scores BEFORE scaling (`prod += causal_mask`, then `prod
= prod/math.sqrt(self.output_key_query_dim)`: -inf stays -inf), `F.softmax(prod,dim=2)` (the last axis of 3-D scores)
and `torch.matmul(prod,V)`: the layer is always causal and has no mask argument.

Left out: dropout (off at evaluation), out's bias (the contract has none), the device move `causal_mask.to(device)`
with `device = x.get_device()`. Added for the contract only: head h's query, key and value
layers are columns [h * (input_dim // num_heads), (h + 1) * (input_dim // num_heads)) of W_Q, W_K and W_V, input_dim
is X.shape[-1] (the constructor's argument), W_O is out, and a `mask` parameter (never read: the layer's forward takes
only x and masks the future keys whatever the mask).
"""

import math

import numpy as np


def _softmax(z, axis):  # F.softmax
    e = np.exp(z - np.max(z, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    input_dim = X.shape[-1]
    output_key_query_dim = input_dim // num_heads
    output_value_dim = input_dim // num_heads

    def head(h):  # SingleHeadAttention(input_dim, input_dim//num_heads, input_dim//num_heads).forward
        qk = slice(h * output_key_query_dim, (h + 1) * output_key_query_dim)
        vc = slice(h * output_value_dim, (h + 1) * output_value_dim)
        Q, K, V = X @ W_Q[:, qk], X @ W_K[:, qk], X @ W_V[:, vc]
        num_tokens = X.shape[1]
        prod = Q @ np.swapaxes(K, 1, 2)
        causal_mask = np.zeros((num_tokens, num_tokens)) + np.triu(np.full((num_tokens, num_tokens), -np.inf), k=1)
        prod = prod + causal_mask
        prod = prod / math.sqrt(output_key_query_dim)
        prod = _softmax(prod, axis=2)
        return prod @ V

    y = np.concatenate([head(h) for h in range(num_heads)], axis=-1)
    return y @ W_O
