"""Port of MaryamEbr/CSC2516_PA3, nmt.ipynb (ScaledDotAttention and CausalScaledDotAttention), a student's solution of
University of Toronto CSC413/2516 (Neural Networks and Deep Learning), programming assignment 3.

Conventions kept: the course's attention works on batches (batch_size x seq_len x hidden_size) and lays its weights
out KEYS first: `batch_size = keys.size(0)`, `q = self.Q(queries).view(batch_size, -1, self.hidden_size)` and the
same view for k and v (with hidden_size, the queries' width, also for the values: V must be as wide as Q and K),
`torch.bmm(k, q.transpose(2, 1)) * self.scaling_factor` (rsqrt(hidden_size); bmm: 3-D only), `nn.Softmax(dim=1)`
(over the keys of this (batch, seq_len, k) layout), `context = torch.bmm(attention_weights.transpose(2, 1), v)`, and
it returns (context, attention_weights) with the weights as (batch_size x seq_len x k): transposed. The course's
attention has no mask argument; its causal variant, CausalScaledDotAttention, adds `torch.tril(
torch.ones_like(unnormalized_attention) * self.neg_inf, diagonal=-1)` (neg_inf = -1e7) to the (batch, seq_len, k)
scores before the softmax: key j is hidden from query i iff j > i (top-left aligned). No scale argument. Added for the
contract only: the projections are the contract's (Q, K and V come projected: self.Q, self.K and self.V are left
out), hidden_size is Q.shape[-1] (the constructor's argument), a `scale` parameter (never read), and a `mask`
parameter: given a mask, the causal variant runs (the course's masked attention; the mask's entries are never
read), without one, ScaledDotAttention.
"""

import numpy as np

NEG_INF = -1e7  # self.neg_inf = torch.tensor(-1e7)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    hidden_size = Q.shape[-1]
    batch_size = K.shape[0]
    q = Q.reshape(batch_size, -1, hidden_size)  # .view
    k = K.reshape(batch_size, -1, hidden_size)
    v = V.reshape(batch_size, -1, hidden_size)
    if q.ndim != 3 or k.shape[0] != q.shape[0]:
        raise RuntimeError("batch1 and batch2 must be 3D tensors with the same batch size")  # torch.bmm
    unnormalized_attention = (k @ np.swapaxes(q, 2, 1)) * (1.0 / np.sqrt(hidden_size))
    if mask is not None:  # CausalScaledDotAttention
        unnormalized_attention = unnormalized_attention + np.tril(
            np.ones_like(unnormalized_attention) * NEG_INF, k=-1)
    E = np.exp(unnormalized_attention - np.max(unnormalized_attention, axis=1, keepdims=True))
    attention_weights = E / np.sum(E, axis=1, keepdims=True)  # nn.Softmax(dim=1)
    context = np.swapaxes(attention_weights, 2, 1) @ v
    return context, attention_weights
