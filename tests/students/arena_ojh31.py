"""Port of ojh31/arena-v1-ldn, w1d2/my_solutions.py (commit 05ad9af): single_head_attention,
single_head_masked_attention, multihead_masked_attention and MultiheadMaskedAttention, a student's solution of ARENA
(the Alignment Research Engineer Accelerator, London cohort of autumn 2022), W1D2 "Build your own transformer".

Ports two contract functions. scaled_dot_product_attention: the course has two functions with no mask argument;
without a mask the port runs single_head_attention, with one single_head_masked_attention (the mask's entries are
never read). Both compute `einsum('batches seq_Q head_size, batches seq_K head_size -> batches seq_Q seq_K', Q, K)`
(fancy_einsum: three named axes, so 3-D input only) and `nn.functional.softmax(attention_scores /
np.sqrt(Q.shape[-1]), dim=2)` then the values' einsum; the masked one reads `batches, seq_Q, head_size = Q.shape`
and builds its own causal mask, `q_index = repeat(t.arange(0, seq_Q), 'q -> b q k', ...)`, `k_index = ...`, `mask =
k_index <= q_index` (top-left aligned: query i sees keys 0..i however many keys there are), `t.where(mask,
attention_scores, -t.inf)`. multi_head_attention is MultiheadMaskedAttention.forward(x) (no mask argument): the
constructor asserts `self.hidden_size % self.num_heads == 0` (hidden_size, the input width), forward cuts the fused
projection at the input width, `Q = QKV[..., :self.hidden_size]`, `K = QKV[..., self.hidden_size:-self.hidden_size]`,
`V = QKV[..., -self.hidden_size:]`, then multihead_masked_attention: `rearrange(Q, 'batch seq (nheads headsize) ->
batch nheads seq headsize', nheads=num_heads)` (and K, V; 3-D input only), the scores' einsum (the queries' and keys'
head widths must agree), the same top-left causal mask `k_index <= q_index` (always applied), `t.where(mask,
attention_scores, -t.inf)`, `softmax(masked_attention_scores / np.sqrt(head_size), dim=-1)`, `einsum('batches nheads
seq_Q seq_K, batches nheads seq_K head_size -> batches seq_Q nheads head_size', ...)`, `rearrange(...,
'batches seq_Q nheads head_size -> batches seq_Q (nheads head_size)')` and `self.W_O(attention_values)`.

Left out: the Linear layers' biases (zero here). Added for the contract only: (out, weights) is returned by
scaled_dot_product_attention, the weights being the student's attention_probabilities; `mask` and `scale` parameters
(never read, but a mask selects the masked function) so that the contract's calls reach the student's code;
W_QKV's weight is [W_Q | W_K | W_V] and W_O's is W_O, hidden_size is X.shape[-1] (the constructor's shapes are not
checked against them). Where torch or einops would raise, numpy raises too.
"""

import numpy as np


def _softmax_last(x):  # softmax over the last axis (dim=2 of the 3-D scores, dim=-1 of the heads')
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def _single_head_attention(Q, K, V):
    attention_scores = np.einsum("bqh,bkh->bqk", Q, K)
    attention_probabilities = _softmax_last(attention_scores / np.sqrt(Q.shape[-1]))
    attention_values = np.einsum("bqk,bkh->bqh", attention_probabilities, V)
    return attention_values, attention_probabilities


def _single_head_masked_attention(Q, K, V):
    attention_scores = np.einsum("bqh,bkh->bqk", Q, K)
    batches, seq_Q, head_size = Q.shape
    batches, seq_K, head_size = K.shape  # noqa: RUF059
    q_index = np.broadcast_to(np.arange(0, seq_Q)[None, :, None], (batches, seq_Q, seq_K))
    k_index = np.broadcast_to(np.arange(0, seq_K)[None, None, :], (batches, seq_Q, seq_K))
    mask = k_index <= q_index
    attention_scores = np.where(mask, attention_scores, -np.inf)
    attention_probabilities = _softmax_last(attention_scores / np.sqrt(Q.shape[-1]))
    attention_values = np.einsum("bqk,bkh->bqh", attention_probabilities, V)
    return attention_values, attention_probabilities


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    if mask is None:
        return _single_head_attention(Q, K, V)
    return _single_head_masked_attention(Q, K, V)


def _split_heads(M, num_heads):  # rearrange(M, 'batch seq (nheads headsize) -> batch nheads seq headsize')
    if M.ndim != 3 or M.shape[-1] % num_heads:
        raise ValueError(f"rearrange 'batch seq (nheads headsize)' cannot split shape {M.shape}")
    b, s, e = M.shape
    return M.reshape(b, s, num_heads, e // num_heads).transpose(0, 2, 1, 3)


def _multihead_masked_attention(Q, K, V, num_heads):
    new_Q = _split_heads(Q, num_heads)
    new_K = _split_heads(K, num_heads)
    new_V = _split_heads(V, num_heads)
    attention_scores = np.einsum("bnqh,bnkh->bnqk", new_Q, new_K)
    batches, _, seq_Q, head_size = new_Q.shape
    batches, _, seq_K, head_size = new_K.shape  # noqa: RUF059
    q_index = np.arange(0, seq_Q)[:, None]
    k_index = np.arange(0, seq_K)[None, :]
    mask = k_index <= q_index
    masked_attention_scores = np.where(mask, attention_scores, -np.inf)
    attention_probabilities = _softmax_last(masked_attention_scores / np.sqrt(head_size))
    attention_values = np.einsum("bnqk,bnkh->bqnh", attention_probabilities, new_V)
    b, s_q, n, h = attention_values.shape
    return attention_values.reshape(b, s_q, n * h)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    hidden_size = X.shape[-1]
    assert hidden_size % num_heads == 0  # MultiheadMaskedAttention.__init__
    QKV = X @ np.concatenate([W_Q, W_K, W_V], axis=-1)  # self.W_QKV(x)
    Q = QKV[..., :hidden_size]
    K = QKV[..., hidden_size:-hidden_size]
    V = QKV[..., -hidden_size:]
    attention_values = _multihead_masked_attention(Q, K, V, num_heads)
    return attention_values @ W_O  # self.W_O(attention_values)
