"""Port of markchangliu/csc413_PA03_attentionModel, nmt.ipynb (ScaledDotAttention and CausalScaledDotAttention), a
student's solution of University of Toronto CSC413/2516 (Neural Networks and Deep Learning), programming assignment 3.

Conventions kept: the course's attention works on batches: `batch_size, seq_len, hid_size = keys.size()` (3-D keys
only), `k = self.K(keys)` then `k = k.view(batch_size, hid_size, seq_len)` (a RESHAPE of the (seq_len, hid_size) keys,
not their transpose: the scores q @ k mix the keys' entries), `unnormalized_attention = self.scaling_factor *
torch.bmm(q, k)` (rsqrt(hidden_size)), `nn.Softmax(dim=2)`, `context = torch.bmm(attention_weights, v)`, and the
weights are returned as `attention_weights.view(dim_aw1, dim_aw3, dim_aw2)` (the course's (batch_size x seq_len x k)
shape, reached by a reshape, not a transpose). The course's attention has no mask argument; its causal variant,
CausalScaledDotAttention, adds `torch.triu(self.neg_inf.expand_as(unnormalized_attention), diagonal=1)` (neg_inf =
-1e7) to the (k, seq_len) scores: key j is hidden from query i iff j > i (top-left aligned). No scale argument. Added
for the contract only: the projections are the contract's (Q, K and V come projected: self.Q, self.K and self.V are
left out), hidden_size is Q.shape[-1] (the constructor's argument), a `scale` parameter (never read), and a `mask`
parameter: given a mask, the causal variant runs (the course's masked attention; the mask's entries are never
read), without one, ScaledDotAttention.
"""

import numpy as np

NEG_INF = -1e7  # self.neg_inf = torch.tensor(-1e7)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    hidden_size = Q.shape[-1]
    batch_size, seq_len, hid_size = K.shape
    q = Q[:, None, :] if Q.ndim == 2 else Q  # torch.unsqueeze(queries, 1)
    k = K.reshape(batch_size, hid_size, seq_len)  # .view, not a transpose
    unnormalized_attention = (1.0 / np.sqrt(hidden_size)) * (q @ k)  # torch.bmm
    if mask is not None:  # CausalScaledDotAttention
        unnormalized_attention = unnormalized_attention + np.triu(np.full(unnormalized_attention.shape, NEG_INF), k=1)
    E = np.exp(unnormalized_attention - np.max(unnormalized_attention, axis=2, keepdims=True))
    attention_weights = E / np.sum(E, axis=2, keepdims=True)
    context = attention_weights @ V
    dim_aw1, dim_aw2, dim_aw3 = attention_weights.shape
    return context, attention_weights.reshape(dim_aw1, dim_aw3, dim_aw2)
