"""Port of Zhang-Astrid/SUSTech-CS310-NLP, Lab9/lab9_transformer.ipynb (commit 4137f72): the cells of tasks T1 and T2
(single-head self-attention, then the future mask) and the MultiHeadAttention class of task T3, a student's solution
of SUSTech (Southern University of Science and Technology, Shenzhen) CS310 Natural Language Processing, spring 2025,
lab 9 (Transformer).

Ports: scaled_dot_product_attention (the T1 and T2 cells, which work on the notebook's global Q, K, V) and
multi_head_attention (MultiHeadAttention.forward of T3).

Conventions kept: T1 computes `scores = torch.matmul(Q, K.T)` (`.T` reverses EVERY axis: only 2-D keys are transposed
right; with leading axes the product raises unless the reversed shapes happen to fit), `scaled_scores = scores /
math.sqrt(d_k)` (d_k = d // n_heads with n_heads = 1: the queries' width), `alpha = F.softmax(scaled_scores, dim=1)`
(the keys' axis of 2-D scores), `output = torch.matmul(alpha, V)`. T2 recomputes `scores = torch.matmul(Q, K.T) /
math.sqrt(d_k)` and builds its OWN mask there, `mask = torch.tril(torch.ones(Q.size(0), Q.size(0))).bool()` (square,
n_q x n_q, top-left causal; the mask of the cell before is overwritten), `masked_scores = scores.masked_fill(~mask,
float('-inf'))` (out of place: the (n_q, n_q) mask and the (n_q, n_k) scores broadcast together, which raises unless
n_k = n_q or n_q = 1), `new_alpha = F.softmax(masked_scores, dim=1)`, and the next cell `new_output =
torch.matmul(new_alpha, V)`. MultiHeadAttention(d_model, n_heads): `assert d_model % n_heads == 0`, `self.d_k =
d_model // n_heads`, W_q, W_k and W_v are (d_model, d_model) parameters; forward(X) (no mask argument, no output
projection): `N = X.size(0)` (a 2-D (N, d) input only), `Q_ = Q.view(N, self.n_heads, self.d_k).transpose(0, 1)` for
Q, K and V (heads d_model // n_heads wide, values too), `alpha = torch.matmul(Q_, K_.transpose(-2, -1)) /
np.sqrt(self.d_k)`, `mask = torch.tril(torch.ones(N, N)).expand(self.n_heads, N, N)` and `alpha.masked_fill(mask == 0,
float('-inf'))` (always causal), F.softmax(alpha, dim=-1), `torch.matmul(alpha, V_).transpose(0, 1).contiguous().view(N,
-1)` returned.

Left out: torch's float32 (the port computes in the inputs' float64). Added for the contract only: the cells become one
function whose Q, K, V are the notebook's globals; without a mask it returns T1's (output, alpha), with one T2's
(new_output, new_alpha) (T2 never reads the mask given: it builds its own causal one); a `scale` parameter (never read)
so that the contract's calls reach the student's code. The class's d_model is X.shape[-1] (its W_q multiplies X), its
W_q, W_k and W_v are W_Q, W_K and W_V; W_O and the contract's mask are never read (the class has neither).
"""

import math

import numpy as np


def _softmax(x, axis):  # F.softmax: exp(x - max) / sum; an all -inf slice gives -inf - (-inf) = NaN
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    d_k = Q.shape[-1]  # the lab's d_k = d // n_heads (n_heads = 1): W_q's columns
    if mask is None:  # T1
        scores = np.matmul(Q, np.transpose(K))  # K.T reverses every axis
        scaled_scores = scores / math.sqrt(d_k)
        alpha = _softmax(scaled_scores, axis=1)
        output = np.matmul(alpha, V)
        return output, alpha
    # T2: the mask given is never read
    scores = np.matmul(Q, np.transpose(K)) / math.sqrt(d_k)
    own = np.tril(np.ones((Q.shape[0], Q.shape[0]))).astype(bool)
    np.broadcast_shapes(own.shape, scores.shape)  # masked_fill broadcasts the mask and the scores (or raises)
    masked_scores = np.where(~own, -np.inf, scores)
    new_alpha = _softmax(masked_scores, axis=1)
    new_output = np.matmul(new_alpha, V)
    return new_output, new_alpha


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model, n_heads = X.shape[-1], num_heads  # MultiHeadAttention(d_model, n_heads)
    assert d_model % n_heads == 0
    d_k = d_model // n_heads
    N = X.shape[0]  # X.size(0)
    Q = np.matmul(X, W_Q)
    K = np.matmul(X, W_K)
    V = np.matmul(X, W_V)
    Q_ = np.swapaxes(Q.reshape(N, n_heads, d_k), 0, 1)  # view(N, n_heads, d_k).transpose(0, 1)
    K_ = np.swapaxes(K.reshape(N, n_heads, d_k), 0, 1)
    V_ = np.swapaxes(V.reshape(N, n_heads, d_k), 0, 1)
    alpha = np.matmul(Q_, np.swapaxes(K_, -2, -1)) / np.sqrt(d_k)
    causal = np.broadcast_to(np.tril(np.ones((N, N))), (n_heads, N, N))  # .expand(self.n_heads, N, N)
    alpha = np.where(causal == 0, -np.inf, alpha)
    alpha = _softmax(alpha, axis=-1)
    return np.swapaxes(np.matmul(alpha, V_), 0, 1).reshape(N, -1)  # transpose(0, 1).contiguous().view(N, -1)
