"""Port of mjfox314/Deep_Learning-CS7643, assignment4/models/Transformer.py (commit 5e04aaa):
TransformerTranslator.multi_head_attention, a student's solution of Georgia Tech CS 7643 (Deep Learning), assignment 4.

Conventions kept: the template builds exactly two heads (k1, v1, q1 and k2, v2, q2, each nn.Linear(hidden_dim,
dim_k / dim_v / dim_q)), `self.softmax = nn.Softmax(dim=2)` (a fixed axis) and `attention_head_projection =
nn.Linear(self.dim_v * self.num_heads, self.hidden_dim)`; the student computes head 1 as softmax(Q1 K1^T /
sqrt(dim_k)) V1 with `torch.matmul` and `K1.transpose(-2, -1)`, and head 2 with `Q2 = self.q1(inputs)`, `K2 =
self.k1(inputs)`, `V2 = self.v1(inputs)` (the FIRST head's layers again: head 2 is a copy of head 1), then
`torch.cat((attention1, attention2), dim=2)` (a fixed axis) and the projection. The function has no mask ("a
simplified implementation": the contract's mask is never read). Only 3-D input (N, T, H) works: the softmax and
the concatenation on axis 2 raise on 2-D input and act on the token axis of 4-D input; with num_heads != 2 the two
heads' (N, T, 2 * dim_v) concatenation does not fit the projection's dim_v * num_heads inputs. Left out: the
"add + norm" the course's Deliverable 2 puts after the attention (`self.norm_mh(outputs + inputs)`: the
block's residual and layer norm, not attention) and the Linear layers' biases. Added for the contract only: head h's
layers are columns [h * dim_k, (h + 1) * dim_k) of W_Q / W_K and [h * dim_v, (h + 1) * dim_v) of W_V, with dim_k =
W_Q.shape[-1] // num_heads and dim_v = W_V.shape[-1] // num_heads (the constructor's arguments), and W_O is the
projection.
"""

import numpy as np


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    dim_k, dim_v = W_Q.shape[-1] // num_heads, W_V.shape[-1] // num_heads
    q1, k1, v1 = W_Q[:, :dim_k], W_K[:, :dim_k], W_V[:, :dim_v]  # self.q1, self.k1, self.v1

    def softmax(S):  # nn.Softmax(dim=2)
        E = np.exp(S - np.max(S, axis=2, keepdims=True))
        return E / np.sum(E, axis=2, keepdims=True)

    Q1, K1, V1 = X @ q1, X @ k1, X @ v1
    attention1 = softmax((Q1 @ np.swapaxes(K1, -2, -1)) / np.sqrt(dim_k)) @ V1
    Q2, K2, V2 = X @ q1, X @ k1, X @ v1  # self.q1, self.k1, self.v1 again
    attention2 = softmax((Q2 @ np.swapaxes(K2, -2, -1)) / np.sqrt(dim_k)) @ V2
    attention_head = np.concatenate((attention1, attention2), axis=2)
    if attention_head.shape[-1] != dim_v * num_heads:  # nn.Linear(dim_v * num_heads, hidden_dim) raises
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({attention_head.shape[-1]} inputs, "
                           f"{dim_v * num_heads} expected)")
    return attention_head @ W_O
