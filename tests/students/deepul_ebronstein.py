"""Port of ebronstein/deepul, homeworks/hw1/hw1.py (commit 138e8a2): MultiHeadAttention.forward (with split_heads), a
student's solution of UC Berkeley CS 294-158 (Deep Unsupervised Learning), spring 2024, homework 1 (autoregressive
models: the causal Transformer of question 3, with a KV cache for sampling).

Ports multi_head_attention.

Conventions kept: MultiHeadAttention(d_model, num_heads, seq_len) sets `self.depth = d_model // num_heads`, builds
`self.wq = nn.Linear(d_model, d_model)` (wk, wv and dense alike) and registers its own additive causal mask, `mask =
torch.triu(torch.ones(seq_len, seq_len), diagonal=1)` then `mask.masked_fill(mask == 1, -1e9)` (0 where allowed,
-1e9 above the diagonal); the layer takes no mask argument. forward(q, k, v) reads `batch_size = q.size(0)` (the
FIRST axis, whatever the rank), splits each projection with split_heads, `x.view(batch_size, -1, self.num_heads,
self.depth)` and `x.permute(0, 2, 1, 3)` (the -1 takes whatever is left: a 2-D (N, D) input becomes N sequences of
one token, a 4-D input's second axis joins the tokens, and projections wider or narrower than d_model regroup the
tokens or raise), computes `torch.matmul(q, k.transpose(-2, -1)) / self.depth**0.5`, adds `self.mask[:seq_len,
:seq_len]` with `seq_len = q.size(2)` (always causal; more than seq_len tokens leave a (seq_len, seq_len) slice the
scores cannot take and raise), F.softmax(dim=-1), and merges with `output.permute(0, 2, 1, 3).contiguous().view(
batch_size, -1, self.d_model)` before `self.dense`. seq_len = 401: q3_a builds `Transformer(seq_len, ...)` with
`seq_len = train_data.shape[1]`, the 20 x 20 shapes images plus the <bos> token. Left out: the Linear layers' biases,
the use_cache path (sampling one token at a time with self.cache: not a contract function's input). Added for the
contract only: d_model is X.shape[-1] (the constructor's argument), W_Q, W_K, W_V and W_O are wq, wk, wv and dense,
self-attention passes X as q, k and v, and a `mask` parameter that is never read.
"""

import numpy as np

SEQ_LEN = 401  # q3_a: seq_len = train_data.shape[1] (20 * 20 pixels + <bos>)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]
    depth = d_model // num_heads
    causal = np.triu(np.ones((SEQ_LEN, SEQ_LEN)), k=1)
    causal = np.where(causal == 1, -1e9, causal)  # mask.masked_fill(mask == 1, -1e9)

    q = k = v = X
    batch_size = q.shape[0]

    def split_heads(x):  # x.view(batch_size, -1, self.num_heads, self.depth).permute(0, 2, 1, 3)
        return x.reshape(batch_size, -1, num_heads, depth).transpose(0, 2, 1, 3)

    q = split_heads(q @ W_Q)
    k = split_heads(k @ W_K)
    v = split_heads(v @ W_V)

    scaled_attention_logits = np.matmul(q, np.swapaxes(k, -2, -1)) / depth**0.5
    seq_len = q.shape[2]
    scaled_attention_logits += causal[:seq_len, :seq_len]  # in place: the slice must broadcast to the scores

    e = np.exp(scaled_attention_logits - np.max(scaled_attention_logits, axis=-1, keepdims=True))
    attention_weights = e / np.sum(e, axis=-1, keepdims=True)  # F.softmax(dim=-1)

    output = np.matmul(attention_weights, v)
    output = output.transpose(0, 2, 1, 3).reshape(batch_size, -1, d_model)  # .contiguous().view(batch_size, -1, d)
    return output @ W_O
