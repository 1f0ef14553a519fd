"""Port of haoyanghy/CS310_NLP, lab9/lab9_transformer.ipynb (commit 8a8f3b0): the cells of tasks T1 and T2
(single-head self-attention, then the future mask) and the MultiHeadAttention class of task T3, a student's solution
of SUSTech (Southern University of Science and Technology, Shenzhen) CS310 Natural Language Processing, spring 2025,
lab 9 (Transformer).

Ports: scaled_dot_product_attention (the T1 and T2 cells, which work on the notebook's global Q, K, V and mask) and
multi_head_attention (MultiHeadAttention.forward of T3).

Conventions kept: T1 computes `QKT = torch.matmul(Q, K.t()) / np.sqrt(d_k)` (torch's t() raises on a tensor of more
than 2 dimensions: 2-D keys only; d_k = d // n_heads with n_heads = 1 is the queries' width), `alpha =
F.softmax(QKT, dim=1)` (the keys' axis of 2-D scores), `output = torch.matmul(alpha, V)`; T2 turns the cell before's
`mask = torch.tril(torch.ones(N, N), diagonal=0)` (1 = may attend) into `mask = mask == 0` and computes `new_alpha =
F.softmax(torch.Tensor.masked_fill(QKT, mask, -np.inf), dim=1)` (a fully masked row is all -inf and becomes NaN),
then `new_output = new_alpha @ V`. MultiHeadAttention(d_model, n_heads): `assert d_model % n_heads == 0`, `self.d_k =
d_model // n_heads`, W_q, W_k and W_v are (d_model, d_model) parameters; forward(X) (no mask argument, no output
projection): `N = X.size(0)` (a 2-D (N, d) input only), `Q_ = Q.view(N, h, self.d_k)` for Q, K and V (heads d_model
// n_heads wide, values too), `alpha = torch.matmul(Q_.permute(1, 0, 2), K_.permute(1, 2, 0)) / np.sqrt(self.d_k)`,
`mask = torch.tril(torch.ones(h, N, N))` and `torch.Tensor.masked_fill(alpha, mask == 0, -np.inf)` (always causal),
F.softmax(alpha, dim=2), `output = torch.matmul(alpha, V_.permute(1, 0, 2)).view(N, -1)`: the (h, N, d_k) heads are
viewed as (N, h * d_k) WITHOUT moving the heads' axis back after the tokens, so row n holds pieces of other tokens'
outputs whenever h > 1.

Left out: torch's float32 (the port computes in the inputs' float64). Added for the contract only: the cells become
one function whose Q, K, V are the notebook's globals; without a mask it returns T1's (output, alpha), with one T2's
(new_output, new_alpha), the contract's boolean mask standing for the lab's 0/1 tril (mask == 0 is the same test); a
`scale` parameter (never read) so that the contract's calls reach the student's code. The class's d_model is
X.shape[-1] (its W_q multiplies X), its W_q, W_k and W_v are W_Q, W_K and W_V; W_O and the contract's mask are never
read (the class has neither).
"""

import numpy as np


def _softmax(x, axis):  # F.softmax: exp(x - max) / sum; an all -inf slice gives -inf - (-inf) = NaN
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def _t(M):  # torch's Tensor.t(): a transpose of at most 2 dimensions
    if np.ndim(M) > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {np.ndim(M)}D")
    return np.transpose(M)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    d_k = Q.shape[-1]  # the lab's d_k = d // n_heads (n_heads = 1): W_q's columns
    # T1
    QKT = np.matmul(Q, _t(K)) / np.sqrt(d_k)
    alpha = _softmax(QKT, axis=1)
    output = np.matmul(alpha, V)
    if mask is None:
        return output, alpha
    # T2
    mask = np.asarray(mask) == 0
    new_alpha = _softmax(np.where(mask, -np.inf, QKT), axis=1)
    new_output = new_alpha @ V
    return new_output, new_alpha


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model, n_heads = X.shape[-1], num_heads  # MultiHeadAttention(d_model, n_heads)
    assert d_model % n_heads == 0
    d_k = d_model // n_heads
    N = X.shape[0]  # X.size(0)
    Q = np.matmul(X, W_Q)
    K = np.matmul(X, W_K)
    V = np.matmul(X, W_V)
    h = n_heads
    Q_ = Q.reshape(N, h, d_k)  # view(N, h, self.d_k)
    K_ = K.reshape(N, h, d_k)
    V_ = V.reshape(N, h, d_k)
    alpha = np.matmul(np.transpose(Q_, (1, 0, 2)), np.transpose(K_, (1, 2, 0))) / np.sqrt(d_k)
    causal = np.tril(np.ones((h, N, N)))
    alpha = np.where(causal == 0, -np.inf, alpha)
    alpha = _softmax(alpha, axis=2)
    return np.matmul(alpha, np.transpose(V_, (1, 0, 2))).reshape(N, -1)  # .view(N, -1)
