"""Port of snow-0420/CSC413-A3, nmt.ipynb (ScaledDotAttention and CausalScaledDotAttention), a student's solution of
University of Toronto CSC413/2516 (Neural Networks and Deep Learning), programming assignment 3.

Conventions kept: the course's attention works on batches (batch_size x seq_len x hidden_size): `batch_size =
queries.shape[0]`, `q = self.Q(queries).view(batch_size, -1, self.hidden_size)`, `unnormalized_attention = q @
k.transpose(1, 2) * self.scaling_factor` (rsqrt(hidden_size); transpose(1, 2): axes 1 and 2, so only 3-D input
works), `attention_weights = self.softmax(unnormalized_attention).transpose(1, 2)` (nn.Softmax(dim=2), then the
course's (batch_size x seq_len x k) layout: the weights are returned transposed), `context =
attention_weights.transpose(1, 2) @ v`. The course's attention has no mask argument; its causal variant,
CausalScaledDotAttention, takes `mask = torch.tril(unnormalized_attention)` and adds neg_inf = -1e7 where `mask ==
0` (above the diagonal of the (k, seq_len) scores: key j is hidden from query i iff j > i, top-left aligned). No
scale argument. Added for the contract only: the projections are the contract's (Q, K and V come projected: self.Q,
self.K and self.V are left out), hidden_size is Q.shape[-1] (the constructor's argument), a `scale` parameter
(never read), and a `mask` parameter: given a mask, the causal variant runs (the course's masked attention; the
mask's entries are never read), without one, ScaledDotAttention.
"""

import numpy as np

NEG_INF = -1e7  # self.neg_inf = torch.tensor(-1e7)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    hidden_size = Q.shape[-1]
    batch_size = Q.shape[0]
    q = Q.reshape(batch_size, -1, hidden_size)  # .view
    k, v = K, V
    unnormalized_attention = q @ np.swapaxes(k, 1, 2) * (1.0 / np.sqrt(hidden_size))
    if mask is not None:  # CausalScaledDotAttention
        tril = np.tril(unnormalized_attention)
        unnormalized_attention = np.where(tril == 0, unnormalized_attention + NEG_INF, unnormalized_attention)
    E = np.exp(unnormalized_attention - np.max(unnormalized_attention, axis=2, keepdims=True))
    attention_weights = np.swapaxes(E / np.sum(E, axis=2, keepdims=True), 1, 2)
    context = np.swapaxes(attention_weights, 1, 2) @ v
    return context, attention_weights
