"""Port of qwertyuiop41/SUSTech-CS310-NLP, lab8/lab8_transformer.ipynb (commit 42d3d0c): the cells of tasks T1 and T2
(single-head self-attention, then the future mask) and the MultiHeadAttention class of task T3, a student's solution
of SUSTech (Southern University of Science and Technology, Shenzhen) CS310 Natural Language Processing, spring 2024,
lab 8 (Transformer).

Ports: scaled_dot_product_attention (the T1 and T2 cells, which work on the notebook's global Q, K, V and mask) and
multi_head_attention (MultiHeadAttention.forward of T3).

Conventions kept: T1 computes `alpha = F.softmax(torch.matmul(Q, K.transpose(0, 1)) / torch.sqrt(torch.tensor(d_k)),
dim=1)` (K.transpose(0, 1) swaps the FIRST two axes: only 2-D keys are transposed right, with leading axes the product
raises unless the swapped shapes happen to fit; dim=1 is the keys' axis of 2-D scores; d_k = d // n_heads with
n_heads = 1 is the queries' width) and `output = torch.matmul(alpha, V)`; T2 builds `mask = torch.tril(torch.ones(N,
N))` (1 = may attend) and then masks the SOFTMAX WEIGHTS of T1, not the scores: `masked_alpha = alpha.masked_fill(mask
== 0, -np.inf)`, `new_alpha = F.softmax(masked_alpha, dim=1)` (a second softmax, of the probabilities; a fully masked
row is all -inf and becomes NaN), `new_output = torch.matmul(new_alpha, V)`. MultiHeadAttention(d_model, n_heads):
`assert d_model % n_heads == 0`, `self.d_k = d_model // n_heads`, W_q, W_k and W_v are (d_model, d_model) parameters;
forward(X) (no mask argument, no output projection): `N = X.size(0)` (a 2-D (N, d) input only), `Q_ = Q.view(N,
self.n_heads, self.d_k).transpose(0, 1)` for Q, K and V (heads d_model // n_heads wide, values too), `alpha =
torch.matmul(Q_, K_.transpose(-2, -1)) / torch.sqrt(torch.tensor(self.d_k, dtype=torch.float32))`, `mask =
torch.tril(torch.ones((N, N), device=X.device)).repeat(self.n_heads, 1, 1)` and `alpha.masked_fill(mask == 0,
float('-inf'))` (always causal), F.softmax(alpha, dim=-1), `output.transpose(0, 1).contiguous().view(N, -1)` returned.

Left out: torch's float32 (the port computes in the inputs' float64; the float32 square root is kept), the dead line
`alpha = torch.matmul(Q_, K_.transpose(1, 2))` that the next line overwrites. Added for the contract only: the cells
become one function whose Q, K, V are the notebook's globals; without a mask it returns T1's (output, alpha), with
one T2's (new_output, new_alpha), the contract's boolean mask standing for the lab's 0/1 tril (mask == 0 is the same
test); a `scale` parameter (never read) so that the contract's calls reach the student's code. The class's d_model is
X.shape[-1] (its W_q multiplies X), its W_q, W_k and W_v are W_Q, W_K and W_V; W_O and the contract's mask are never
read (the class has neither).
"""

import numpy as np


def _softmax(x, axis):  # F.softmax: exp(x - max) / sum; an all -inf slice gives -inf - (-inf) = NaN
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    d_k = Q.shape[-1]  # the lab's d_k = d // n_heads (n_heads = 1): W_q's columns
    # T1
    alpha = _softmax(np.matmul(Q, np.swapaxes(K, 0, 1)) / np.sqrt(np.float32(d_k)), axis=1)
    output = np.matmul(alpha, V)
    if mask is None:
        return output, alpha
    # T2: the mask meets the softmax weights, then a second softmax
    masked_alpha = np.where(np.asarray(mask) == 0, -np.inf, alpha)
    new_alpha = _softmax(masked_alpha, axis=1)
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
    alpha = np.matmul(Q_, np.swapaxes(K_, -2, -1)) / np.sqrt(np.float32(d_k))
    causal = np.tile(np.tril(np.ones((N, N))), (n_heads, 1, 1))  # .repeat(self.n_heads, 1, 1)
    alpha = np.where(causal == 0, -np.inf, alpha)
    alpha = _softmax(alpha, axis=-1)
    output = np.matmul(alpha, V_)
    return np.swapaxes(output, 0, 1).reshape(N, -1)  # transpose(0, 1).contiguous().view(N, -1)
