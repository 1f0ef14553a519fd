"""Port of awesombird/CS137-assignment4, mha_implementation.py (commit 0989f9e, December 2023): mha_137, a student's
solution of Tufts University's CS 137 Deep Neural Networks (fall 2023), assignment 4, task 1 "implement the multi-head
attention layer with linear transformations and other elementary operations" (mha_notebook.ipynb, Q1: the output must
match torch.nn.MultiheadAttention's on the notebook's test case).

Ports multi_head_attention (mha_137).

Conventions kept: the course's mha_137(query, key, value, in_wbs, out_wb) takes time-major inputs, "query: a tensor
with shape (seq_len1, batch_size, emb_dim)" (as nn.MultiheadAttention without batch_first), and per-head weights and
biases `wqs, wks, wvs, bqs, bks, bvs = in_wbs` (the notebook chunks the torch layer's in_proj_weight into q, k, v and
then into num_heads blocks of rows) and `out_w, out_b = out_wb`. The student's code: `query = torch.transpose(query, 0,
1)` (likewise key and value: meant to turn (seq_len, batch, emb) into (batch, seq_len, emb); a contract (B, N, D) input
becomes (N, B, D), so each token position attends over the B sequences, and a 2-D (N, D) input becomes (D, N), whose
projection raises unless N = D); for every head `torch.nn.functional.linear(query, wqs[head], bqs[head])` (likewise k
and v), `logit = torch.matmul(q_head, torch.transpose(k_head, -1, -2)) / math.sqrt(q_head.shape[-1])` (the head's
width: right), `torch.nn.functional.softmax(logit, -1)`, `torch.matmul(weights, v_head)`; `torch.cat(output, dim=-1)`,
`torch.nn.functional.linear(attn_output, out_w, out_b)` and `attn_output.transpose(0, 1)`. There is no mask.

Left out: the shape prints (print("Q:", q_head.shape) and the like), the biases (zero here: the contract has none),
float32 arithmetic. Added for the contract only: query, key and value are X (self-attention), wqs[h] is
W_Q[:, h*d_k:(h+1)*d_k].T (the torch layout, out x in; likewise wks from W_K and wvs from W_V with d_v), out_w is
W_O.T, and the contract's `mask` is never read.
"""

import math

import numpy as np


def _linear(x, w, b):  # torch.nn.functional.linear: x @ w.T + b
    return x @ w.T + b


def _softmax(x, axis):  # torch.nn.functional.softmax
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def _mha_137(query, key, value, in_wbs, out_wb):
    wqs, wks, wvs, bqs, bks, bvs = in_wbs
    out_w, out_b = out_wb

    query = np.swapaxes(query, 0, 1)  # torch.transpose(query, 0, 1)
    key = np.swapaxes(key, 0, 1)
    value = np.swapaxes(value, 0, 1)

    output = []
    for head in range(len(wqs)):
        q_head = _linear(query, wqs[head], bqs[head])
        k_head = _linear(key, wks[head], bks[head])
        v_head = _linear(value, wvs[head], bvs[head])

        logit = q_head @ np.swapaxes(k_head, -1, -2) / math.sqrt(q_head.shape[-1])
        weights = _softmax(logit, -1)
        output_head = weights @ v_head
        output.append(output_head)

    attn_output = np.concatenate(output, axis=-1)
    attn_output = _linear(attn_output, out_w, out_b)
    attn_output = np.swapaxes(attn_output, 0, 1)
    return attn_output


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_k = W_Q.shape[-1] // num_heads
    d_v = W_V.shape[-1] // num_heads
    wqs = [W_Q[:, h * d_k:(h + 1) * d_k].T for h in range(num_heads)]
    wks = [W_K[:, h * d_k:(h + 1) * d_k].T for h in range(num_heads)]
    wvs = [W_V[:, h * d_v:(h + 1) * d_v].T for h in range(num_heads)]
    bqs = [np.zeros(d_k) for _ in range(num_heads)]
    bks = [np.zeros(d_k) for _ in range(num_heads)]
    bvs = [np.zeros(d_v) for _ in range(num_heads)]
    in_wbs = (wqs, wks, wvs, bqs, bks, bvs)
    out_wb = (W_O.T, np.zeros(W_O.shape[-1]))
    return _mha_137(X, X, X, in_wbs, out_wb)
