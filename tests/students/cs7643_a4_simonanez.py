"""Port of simonanez/deep-learning-cs7643, assignment4/models/Transformer.py:
TransformerTranslator.multi_head_attention, a student's solution of Georgia Tech CS 7643 (Deep Learning), assignment 4.

Conventions kept: the template builds exactly two heads (k1, v1, q1 and k2, v2, q2, each nn.Linear(hidden_dim,
dim_k / dim_v / dim_q)), `self.softmax = nn.Softmax(dim=2)` (a fixed axis) and `attention_head_projection =
nn.Linear(self.dim_v * self.num_heads, self.hidden_dim)`; the student computes each head as `keys =
torch.transpose(keys, 1, 2)` (axes 1 and 2, not the last two), `torch.matmul(queries, keys)`, `self.softmax(attention
/ (self.dim_k ** (1/2)))`, `torch.matmul(attention, values)`, then `torch.cat((attention1, attention2), dim=2)` and
the projection. The function has no mask ("a simplified implementation": the contract's mask is never read). Only
3-D input (N, T, H) works: transpose(1, 2) raises on 2-D input and swaps a batch axis with the tokens of 4-D input;
with num_heads != 2 the two heads' (N, T, 2 * dim_v) concatenation does not fit the projection's dim_v * num_heads
inputs. Left out: the "add + norm" the course's Deliverable 2 puts after the attention (`self.norm_mh(
attention_concat + inputs)`: the block's residual and layer norm, not attention) and the Linear layers' biases.
Added for the contract only: head h's layers are columns [h * dim_k, (h + 1) * dim_k) of W_Q / W_K and [h * dim_v,
(h + 1) * dim_v) of W_V, with dim_k = W_Q.shape[-1] // num_heads and dim_v = W_V.shape[-1] // num_heads (the
constructor's arguments), and W_O is the projection.
"""

import numpy as np


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    dim_k, dim_v = W_Q.shape[-1] // num_heads, W_V.shape[-1] // num_heads

    def softmax(S):  # nn.Softmax(dim=2)
        E = np.exp(S - np.max(S, axis=2, keepdims=True))
        return E / np.sum(E, axis=2, keepdims=True)

    def head(h):
        keys = X @ W_K[:, h * dim_k:(h + 1) * dim_k]
        values = X @ W_V[:, h * dim_v:(h + 1) * dim_v]
        queries = X @ W_Q[:, h * dim_k:(h + 1) * dim_k]
        keys = np.swapaxes(keys, 1, 2)  # torch.transpose(keys, 1, 2)
        attention = queries @ keys
        attention = softmax(attention / (dim_k ** (1 / 2)))
        return attention @ values

    attention_concat = np.concatenate((head(0), head(1)), axis=2)
    if attention_concat.shape[-1] != dim_v * num_heads:  # nn.Linear(dim_v * num_heads, hidden_dim) raises
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({attention_concat.shape[-1]} inputs, "
                           f"{dim_v * num_heads} expected)")
    return attention_concat @ W_O
