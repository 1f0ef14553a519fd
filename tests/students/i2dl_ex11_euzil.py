"""Port of Euzil/I2DL, exercise_11/exercise_code/network/attention.py and
exercise_11/exercise_code/network/multi_head_attention.py (commit 049d87d): ScaledDotAttention.forward and
MultiHeadAttention.forward, a student's solution of TUM IN2346 Introduction to Deep Learning (I2DL), exercise 11
(transformers).

Conventions kept (the exercise's template at this stage, the course's 2024/25 edition, has no mask parameters; masking
comes in the next exercise): ScaledDotAttention.forward(q, k, v) has no mask and no scale parameter:
`self.softmax(torch.matmul(q, k.transpose(-2, -1)) / torch.sqrt(torch.tensor(self.d_k)))` with nn.Softmax(dim=-1) (the
constructor's d_k), then `torch.matmul(scores, v)` (the unscaled product it computes first is overwritten).
MultiHeadAttention.forward(q, k, v) has no mask parameter either: it reads `batch_size, sequence_length_queries, _ =
q.size()` (3-D input only), reshapes each projection to (batch_size, sequence_length, self.n_heads, self.d_k) (self.d_v
for the values), `transpose(1, 2)`, calls its ScaledDotAttention(d_k), transposes back, reshapes to (batch_size,
sequence_length_queries, self.n_heads * self.d_v) and applies the projection layer. Added for the contract only: (out,
weights) is returned, the weights being the scores the student saves in SCORE_SAVER; `mask` and `scale` parameters
(never read) so that the contract's calls reach the student's code; ScaledDotAttention's d_k is Q.shape[-1] (the width
it is built with); the course's MultiHeadAttention(d_model, d_k, d_v, n_heads) gets d_k = W_Q.shape[-1] // num_heads and
d_v = W_V.shape[-1] // num_heads, and its bias-free nn.Linear layers weights_q, weights_k, weights_v and project are
W_Q, W_K, W_V and W_O (self-attention: q = k = v = X).
"""

import numpy as np


def _scaled_dot_attention(d_k, q, k, v):
    scores = np.matmul(q, np.swapaxes(k, -2, -1))
    logits = np.matmul(q, np.swapaxes(k, -2, -1)) / np.sqrt(np.float32(d_k))
    e = np.exp(logits - np.max(logits, axis=-1, keepdims=True))  # nn.Softmax(dim=-1)
    scores = e / np.sum(e, axis=-1, keepdims=True)
    outputs = np.matmul(scores, v)
    return outputs, scores


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    return _scaled_dot_attention(Q.shape[-1], Q, K, V)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    n_heads = num_heads
    d_k, d_v = W_Q.shape[-1] // num_heads, W_V.shape[-1] // num_heads
    q = k = v = X
    batch_size, sequence_length_queries, _ = q.shape
    _, sequence_length_keys, _ = k.shape
    q = (q @ W_Q).reshape(batch_size, sequence_length_queries, n_heads, d_k)
    k = (k @ W_K).reshape(batch_size, sequence_length_keys, n_heads, d_k)
    v = (v @ W_V).reshape(batch_size, sequence_length_keys, n_heads, d_v)
    q = q.swapaxes(1, 2)
    k = k.swapaxes(1, 2)
    v = v.swapaxes(1, 2)
    attention_output, _scores = _scaled_dot_attention(d_k, q, k, v)
    attention_output = attention_output.swapaxes(1, 2)
    outputs = attention_output.reshape(batch_size, sequence_length_queries, n_heads * d_v)
    return outputs @ W_O
