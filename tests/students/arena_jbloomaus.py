"""Port of jbloomAus/arena-v1-ldn, w1d2/src/transformers.py (commit 8df261b): single_head_attention,
single_head_masked_attention, multihead_masked_attention and MultiheadMaskedAttention, a student's solution of ARENA
(the Alignment Research Engineer Accelerator, London cohort of autumn 2022), W1D2 "Build your own transformer".

Ports two contract functions. scaled_dot_product_attention: the course has two functions with no mask argument;
without a mask the port runs single_head_attention, with one single_head_masked_attention (the mask's entries are
never read). Both read `emb_len = Q.shape[-1]`, compute `einsum('b s_q h, b h s_k -> b s_q s_k', Q,
K.transpose(dim0=-1, dim1=-2))` (fancy_einsum: three named axes, so 3-D input only), `QKT / (emb_len ** 0.5)`,
`t.softmax(QKT, dim=-1)` and `einsum('b s_q s_k, b s_k h -> b s_q h', attention_probs, V)`; the masked one first
builds its own mask from the queries' length, `tri = t.tril(t.ones((seq_len, seq_len)), diagonal=0)*(-10 ** 4)` with
`seq_len = Q.shape[-2]`, and subtracts it, `QKT_masked = (QKT - tri)` (the allowed scores raised by 1e4: the future
keys are 1e4 below them; an (N_q, N_q) table that broadcasts against the (B, N_q, N_k) scores only when N_k = N_q or
N_q = 1). multi_head_attention: MultiheadMaskedAttention.forward(x) (no mask argument) runs `QKV =
self.W_QKV(x)`, `Q, K, V = einops.rearrange(QKV, 'b hs (n es) -> n b hs es', n=3)` (3-D input only; three equal
chunks of the fused projection), then multihead_masked_attention: `headsize = emb_len // num_heads` with `emb_len =
Q.shape[-1]`, `einops.rearrange(Q, 'b s (nh h) -> b nh s h', nh=num_heads)` (and K, V), `einsum('b nh s_q h, b nh s_k
h -> b nh s_q s_k', Q_, K_)`, `QKT / (headsize**0.5)`, its mask commented out (`# tri = t.triu(...)`, `# QKT_masked =
(QKT + tri)`): the "masked" attention is not masked; `t.softmax(QKT, dim=-1)`, the values' einsum, `einops.rearrange(
attention_values_, ' b hn s_q h ->  b s_q (hn h)')`, then `self.W_O(av)`. The constructor asserts `(hidden_size %
num_heads) == 0`, hidden_size being the input width (nn.Linear(hidden_size, 3 * hidden_size)).

Left out: the Linear layers' biases (zero here). Added for the contract only: (out, weights) is returned by
scaled_dot_product_attention, the weights being the student's attention_probs; `mask` and `scale` parameters (never
read, but a mask selects the masked function) so that the contract's calls reach the student's code; W_QKV's weight
is [W_Q | W_K | W_V] and W_O's is W_O, hidden_size is X.shape[-1] (the constructor's shapes are not checked against
them). Where torch or einops would raise (an einsum on other than 3-D input, a rearrange that cannot split, a
broadcast that fails), numpy raises too.
"""

import numpy as np


def _softmax_last(x):  # t.softmax(x, dim=-1)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def _single_head_attention(Q, K, V):
    emb_len = Q.shape[-1]
    QKT = np.einsum("bqh,bhk->bqk", Q, np.swapaxes(K, -1, -2))
    QKT = QKT / (emb_len ** 0.5)
    attention_probs = _softmax_last(QKT)
    attention_values = np.einsum("bqk,bkh->bqh", attention_probs, V)
    return attention_values, attention_probs


def _single_head_masked_attention(Q, K, V):
    emb_len = Q.shape[-1]
    seq_len = Q.shape[-2]
    QKT = np.einsum("bqh,bhk->bqk", Q, np.swapaxes(K, -1, -2))
    QKT = QKT / (emb_len ** 0.5)
    tri = np.tril(np.ones((seq_len, seq_len)), k=0) * (-10 ** 4)
    QKT_masked = QKT - tri
    attention_probs = _softmax_last(QKT_masked)
    attention_values = np.einsum("bqk,bkh->bqh", attention_probs, V)
    return attention_values, attention_probs


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    if mask is None:
        return _single_head_attention(Q, K, V)
    return _single_head_masked_attention(Q, K, V)


def _split_heads(M, num_heads):  # einops.rearrange(M, 'b s (nh h) -> b nh s h', nh=num_heads)
    if M.ndim != 3 or M.shape[-1] % num_heads:
        raise ValueError(f"rearrange 'b s (nh h) -> b nh s h' cannot split shape {M.shape} with nh={num_heads}")
    b, s, e = M.shape
    return M.reshape(b, s, num_heads, e // num_heads).transpose(0, 2, 1, 3)


def _multihead_masked_attention(Q, K, V, num_heads):
    emb_len = Q.shape[-1]
    headsize = emb_len // num_heads
    Q_ = _split_heads(Q, num_heads)
    K_ = _split_heads(K, num_heads)
    V_ = _split_heads(V, num_heads)
    QKT = np.einsum("bnqh,bnkh->bnqk", Q_, K_)
    QKT = QKT / (headsize ** 0.5)
    attention_probs = _softmax_last(QKT)
    attention_values_ = np.einsum("bnqk,bnkh->bnqh", attention_probs, V_)
    b, hn, s_q, h = attention_values_.shape
    return attention_values_.transpose(0, 2, 1, 3).reshape(b, s_q, hn * h)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    hidden_size = X.shape[-1]
    assert (hidden_size % num_heads) == 0  # MultiheadMaskedAttention.__init__
    QKV = X @ np.concatenate([W_Q, W_K, W_V], axis=-1)  # self.W_QKV(x)
    if QKV.ndim != 3 or QKV.shape[-1] % 3:  # rearrange(QKV, 'b hs (n es) -> n b hs es', n=3)
        raise ValueError(f"rearrange 'b hs (n es) -> n b hs es' cannot split shape {QKV.shape} with n=3")
    b, hs, total = QKV.shape
    Q, K, V = QKV.reshape(b, hs, 3, total // 3).transpose(2, 0, 1, 3)
    av = _multihead_masked_attention(Q, K, V, num_heads)
    return av @ W_O  # self.W_O(av)
