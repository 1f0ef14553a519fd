"""Port of MehdiJmlkh/Deep-Learning-Course-Homeworks-S2024, "HW3 - RNNs & Transformers/practical/simple-GPT.ipynb"
(commit a4a749b): SelfAttentionHead and MultiHeadSelfAttention, a student's solution of the Deep Learning course of
Sharif University of Technology (Tehran; Dr. Soleymani, spring 2024), homework 3 "RNNs & Transformers", practical
notebook "SimpleGPT" ("create and train a decoder-only model, which is a custom and scaled-down version of GPT": the
course gives the classes' signatures and docstrings, SelfAttentionHead(n_embd, head_size), MultiHeadSelfAttention(
num_heads, n_embd, head_size) with "projection (nn.Linear): Linear layer to project the concatenated outputs of all
heads back to the input_size dimensions", FeedForward, TransformerBlock and SimpleGPT, and the hint "Make sure to create
a mask and use it on the attention weights. You can do this by using torch.tril to make a lower triangle mask and
masked_fill_ in PyTorch to put the mask in place").

Ports scaled_dot_product_attention (SelfAttentionHead.forward from its K, Q and V on) and multi_head_attention
(MultiHeadSelfAttention.forward over its SelfAttentionHeads).

Conventions kept: SelfAttentionHead(n_embd, head_size) builds bias-free `nn.Linear(n_embd, head_size)` layers key,
query AND value (the values head_size wide too); forward(x) computes `alignment = torch.bmm(Q, K.permute(0, 2, 1)) /
np.sqrt(self.head_size)` (bmm and a three-axis permute: 3-D inputs only, batches of equal size), `alignment =
torch.masked_fill(alignment, torch.tril(alignment) == 0, -torch.inf)`: its causal mask is built from the SCORES, so
besides the keys above the diagonal (top-left aligned: torch.tril of the (N_q, N_k) scores) every allowed score that
is exactly 0 is masked too (a row whose allowed scores are all 0 is all -inf and becomes NaN); it is applied always
(the head has no mask argument); `torch.softmax(alignment, dim=-1)` and `torch.bmm(attention, V)`.
MultiHeadSelfAttention(num_heads, n_embd, head_size) holds `nn.ModuleList([SelfAttentionHead(n_embd, head_size) for i
in range(num_heads)])` and `self.projection = nn.Linear(head_size*num_heads, n_embd)`; forward(x) returns
`self.projection(torch.concatenate([head(x) for head in self.heads], dim=-1))`; no mask argument.

Left out: the projection's bias (zero here: the contract has none). Added for the contract only:
scaled_dot_product_attention(Q, K, V, mask, scale) is SelfAttentionHead.forward after its projections, with Q, K and V
the contract's and head_size = Q.shape[-1] (the width of the query layer's output), returning (out, attention) (the
student returns out; the weights are its softmax); `mask` and `scale` are accepted and never read. In
multi_head_attention n_embd is X.shape[-1] and head_size is W_Q.shape[-1] // num_heads (the student's TransformerBlock
passes n_embd // num_heads; the class takes any head_size); head h's key, query and value layers are columns [h *
head_size, (h + 1) * head_size) of W_K, W_Q and W_V (the value layer head_size wide like the others), W_O is
projection, and the contract's `mask` is never read.
"""

import numpy as np


def _bmm(a, b):  # torch.bmm: two 3-D tensors with the same batch size, no broadcasting
    if a.ndim != 3 or b.ndim != 3:
        raise RuntimeError(f"batch1 must be a 3D tensor, batch2 must be a 3D tensor (got {a.ndim}D and {b.ndim}D)")
    if a.shape[0] != b.shape[0] or a.shape[2] != b.shape[1]:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{a.shape[0]}, "
                           f"{a.shape[2]}] but got: [{b.shape[0]}, {b.shape[1]}].")
    return a @ b


def _softmax_last(x):  # torch.softmax(x, dim=-1): an all -inf row gives NaN
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def _head_attention(K, Q, V, head_size):  # SelfAttentionHead.forward after its projections
    alignment = _bmm(Q, np.transpose(K, (0, 2, 1))) / np.sqrt(head_size)
    alignment = np.where(np.tril(alignment) == 0, -np.inf, alignment)  # torch.masked_fill(..., tril == 0, -inf)
    attention = _softmax_last(alignment)
    out = _bmm(attention, V)
    return out, attention


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    head_size = Q.shape[-1]  # self.head_size: the query layer's width
    return _head_attention(K, Q, V, head_size)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    head_size = W_Q.shape[-1] // num_heads

    def head(h, x):  # SelfAttentionHead(n_embd, head_size) number h
        cols = slice(h * head_size, (h + 1) * head_size)
        K = x @ W_K[:, cols]
        Q = x @ W_Q[:, cols]
        V = x @ W_V[:, cols]
        out, _ = _head_attention(K, Q, V, head_size)
        return out

    out = np.concatenate([head(h, X) for h in range(num_heads)], axis=-1)
    return out @ W_O  # self.projection
