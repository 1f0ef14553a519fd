"""Port of EarendelH/SUSTech-NLP25, lab9/lab9_transformer.ipynb (commit b9ae188): the cells of tasks T1 and T2
(single-head self-attention, then the future mask) and the MultiHeadAttention class of task T3, a student's solution
of SUSTech (Southern University of Science and Technology, Shenzhen) CS310 Natural Language Processing, spring 2025,
lab 9 (Transformer).

Ports: scaled_dot_product_attention (the T1 and T2 cells, which work on the notebook's global Q, K, V and mask) and
multi_head_attention (MultiHeadAttention.forward of T3).

Conventions kept: T1 computes `scores = torch.matmul(Q, K.T) / np.sqrt(d_k)` (`.T` reverses EVERY axis: only 2-D keys
are transposed right; with leading axes the product raises unless the reversed shapes happen to fit; d_k = d //
n_heads with n_heads = 1 is the queries' width), `alpha = F.softmax(scores, dim=-1)`, `output = torch.matmul(alpha,
V)`; T2 masks T1's scores with the cell before's `mask = torch.tril(torch.ones(N, N))` (1 = may attend):
`new_alpha = F.softmax(scores.masked_fill(mask == 0, -np.inf), dim=-1)` (a fully masked row is all -inf and becomes
NaN), then `new_output = torch.matmul(new_alpha, V)`. MultiHeadAttention(d_model, n_heads): `assert d_model % n_heads
== 0`, `self.d_k = d_model // n_heads`, W_q, W_k and W_v are (d_model, d_model) parameters; forward(X) (no mask
argument, no output projection): `N = X.size(0)` (a 2-D (N, d) input only), `Q_ = Q.view(N, self.n_heads,
self.d_k).permute(1, 0, 2)` for Q, K and V (heads d_model // n_heads wide, values too), `scores = torch.matmul(Q_,
K_.transpose(-2, -1)) / np.sqrt(self.d_k)`, `mask = torch.tril(torch.ones(N, N))` and `scores.masked_fill(mask == 0,
-np.inf)` (always causal), F.softmax(scores, dim=-1), `output = torch.matmul(alpha, V_)` and `output = output.view(N,
-1)`: the (n_heads, N, d_k) heads are viewed as (N, n_heads * d_k) WITHOUT moving the heads' axis back after the
tokens, so row n holds pieces of other tokens' outputs whenever n_heads > 1.

Left out: torch's float32 (the port computes in the inputs' float64), `.to(scores.device)`. Added for the contract
only: the cells become one function whose Q, K, V are the notebook's globals; without a mask it returns T1's (output,
alpha), with one T2's (new_output, new_alpha), the contract's boolean mask standing for the lab's 0/1 tril (mask == 0
is the same test); a `scale` parameter (never read) so that the contract's calls reach the student's code. The
class's d_model is X.shape[-1] (its W_q multiplies X), its W_q, W_k and W_v are W_Q, W_K and W_V; W_O and the
contract's mask are never read (the class has neither).
"""

import numpy as np


def _softmax(x, axis):  # F.softmax: exp(x - max) / sum; an all -inf slice gives -inf - (-inf) = NaN
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    d_k = Q.shape[-1]  # the lab's d_k = d // n_heads (n_heads = 1): W_q's columns
    # T1
    scores = np.matmul(Q, np.transpose(K)) / np.sqrt(d_k)  # K.T reverses every axis
    alpha = _softmax(scores, axis=-1)
    output = np.matmul(alpha, V)
    if mask is None:
        return output, alpha
    # T2
    new_alpha = _softmax(np.where(np.asarray(mask) == 0, -np.inf, scores), axis=-1)
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
    Q_ = np.transpose(Q.reshape(N, n_heads, d_k), (1, 0, 2))  # view(N, n_heads, d_k).permute(1, 0, 2)
    K_ = np.transpose(K.reshape(N, n_heads, d_k), (1, 0, 2))
    V_ = np.transpose(V.reshape(N, n_heads, d_k), (1, 0, 2))
    scores = np.matmul(Q_, np.swapaxes(K_, -2, -1)) / np.sqrt(d_k)  # (n_heads, N, N)
    causal = np.tril(np.ones((N, N)))
    scores = np.where(causal == 0, -np.inf, scores)
    alpha = _softmax(scores, axis=-1)
    output = np.matmul(alpha, V_)  # (n_heads, N, d_k), contiguous
    return output.reshape(N, -1)  # output.view(N, -1): the heads' axis is never moved back
