"""Port of SmokeShine/Deep-Learning, assignment4/models/Transformer.py: TransformerTranslator.multi_head_attention, a
student's solution of Georgia Tech CS 7643 (Deep Learning), assignment 4.

Conventions kept: the template builds exactly two heads (k1, v1, q1 and k2, v2, q2, each nn.Linear(hidden_dim,
dim_k / dim_v / dim_q)), `self.softmax = nn.Softmax(dim=2)` (a fixed axis) and `attention_head_projection =
nn.Linear(self.dim_v * self.num_heads, self.hidden_dim)`; the student computes each head as `_, Nx, Dq =
key_vectors.shape` (3-D), `torch.bmm(query_vectors, key_vectors.permute(0, 2, 1)) / math.sqrt(Dq)` (batched 3-D
matrix products only), the softmax, `attention @ value_vectors`, then `torch.cat((output_vectors_1,
output_vectors_2), 2)` and the projection. The function has no mask ("a simplified implementation": the contract's
mask is never read). Only 3-D input (N, T, H) works: the unpacking, bmm and permute(0, 2, 1) raise on 2-D or 4-D
input; with num_heads != 2 the two heads' (N, T, 2 * dim_v) concatenation does not fit the projection's dim_v *
num_heads inputs. Left out: the "add + norm" the course's Deliverable 2 puts after the attention
(`self.norm_mh(inputs + outputs_cat)`: the block's residual and layer norm, not attention) and the Linear layers'
biases. Added for the contract only: head h's layers are columns [h * dim_k, (h + 1) * dim_k) of W_Q / W_K and
[h * dim_v, (h + 1) * dim_v) of W_V, with dim_k = W_Q.shape[-1] // num_heads and dim_v = W_V.shape[-1] // num_heads
(the constructor's arguments), and W_O is the projection.
"""

import math

import numpy as np


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    dim_k, dim_v = W_Q.shape[-1] // num_heads, W_V.shape[-1] // num_heads

    def softmax(S):  # nn.Softmax(dim=2)
        E = np.exp(S - np.max(S, axis=2, keepdims=True))
        return E / np.sum(E, axis=2, keepdims=True)

    def bmm(A, B):  # torch.bmm: two 3-D tensors with the same batch size
        if A.ndim != 3 or B.ndim != 3 or A.shape[0] != B.shape[0]:
            raise RuntimeError("batch1 and batch2 must be 3D tensors with the same batch size")
        return A @ B

    def head(h):
        query_vectors = X @ W_Q[:, h * dim_k:(h + 1) * dim_k]
        key_vectors = X @ W_K[:, h * dim_k:(h + 1) * dim_k]
        value_vectors = X @ W_V[:, h * dim_v:(h + 1) * dim_v]
        _, _Nx, Dq = key_vectors.shape  # _, Nx, Dq
        similarity = bmm(query_vectors, key_vectors.transpose(0, 2, 1)) / math.sqrt(Dq)
        return softmax(similarity) @ value_vectors

    outputs_cat = np.concatenate((head(0), head(1)), axis=2)
    if outputs_cat.shape[-1] != dim_v * num_heads:  # nn.Linear(dim_v * num_heads, hidden_dim) raises
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({outputs_cat.shape[-1]} inputs, "
                           f"{dim_v * num_heads} expected)")
    return outputs_cat @ W_O
