"""Port of curt-tigges/arena-v1-ldn-ct, w1d2/transformer_modules.py (commit 2a05422): MultiheadMaskedAttention, a
student's solution of ARENA (the Alignment Research Engineer Accelerator, London cohort of autumn 2022), W1D2 "Build
your own transformer".

Ports multi_head_attention, MultiheadMaskedAttention.forward(x) (no mask argument): `out = self.qkv(x)` (one
nn.Linear(hidden_size, 3 * hidden_size)), `Q, K, V = t.tensor_split(out, 3, dim=-1)` (three nearly equal pieces of
the fused projection: the first width % 3 pieces one column wider), then its method multihead_masked_attention:
`rearrange(Q, "B S (nheads headsize) -> B S nheads headsize", nheads=num_heads)` (and K, V; 3-D input only),
`batch_size, seq_len, nheads, headsize = Q.shape`, `einsum("B Qseq nheads headsize, B Kseq nheads headsize -> B
nheads Qseq Kseq", Q, K)`, `scores /= Q.shape[-1] ** 0.5`, its own causal mask `mask = t.tril(t.ones(seq_len,
seq_len), diagonal=0)` filled with `scores.masked_fill(mask == 0, -1e9)`, `t.softmax(scores, dim=-1)`, then `Z =
einsum("B nheads Qseq Kseq, B Qseq nheads headsize -> B Qseq nheads headsize", scores, V)`: the values' token axis
is labelled Qseq, the QUERY axis, so the weights are only summed over the keys (to 1) and token n's output is its
own value vector V[n], whatever the scores, the scale or the mask; `rearrange(Z, "B Qseq nheads headsize -> B Qseq
(nheads headsize)")` and `self.ff(Z)` (the output projection).

Left out: the Linear layers' biases (zero here). Added for the contract only: qkv's weight is [W_Q | W_K | W_V] and
ff's is W_O (the constructor's nn.Linear(hidden_size, 3 * hidden_size) and nn.Linear(hidden_size, hidden_size)
shapes are not checked against them), a `mask` parameter never read. Where torch or einops would raise, numpy raises
too.
"""

import numpy as np


def _tensor_split3(M):  # t.tensor_split(M, 3, dim=-1)
    n = M.shape[-1]
    q, r = divmod(n, 3)
    sizes = [q + 1 if i < r else q for i in range(3)]
    bounds = np.cumsum([0, *sizes])
    return tuple(M[..., bounds[i]:bounds[i + 1]] for i in range(3))


def _split_heads(M, num_heads):  # rearrange(M, "B S (nheads headsize) -> B S nheads headsize", nheads=num_heads)
    if M.ndim != 3 or M.shape[-1] % num_heads:
        raise ValueError(f"rearrange 'B S (nheads headsize)' cannot split shape {M.shape}")
    b, s, e = M.shape
    return M.reshape(b, s, num_heads, e // num_heads)


def _multihead_masked_attention(Q, K, V, num_heads):
    Q = _split_heads(Q, num_heads)
    K = _split_heads(K, num_heads)
    V = _split_heads(V, num_heads)
    batch_size, seq_len, nheads, headsize = Q.shape  # noqa: RUF059
    scores = np.einsum("bqnh,bknh->bnqk", Q, K)
    scores = scores / Q.shape[-1] ** 0.5
    mask = np.tril(np.ones((seq_len, seq_len)), k=0)
    scores = np.where(mask == 0, -1e9, scores)  # masked_fill(mask == 0, -1e9)
    e = np.exp(scores - np.max(scores, axis=-1, keepdims=True))
    scores = e / np.sum(e, axis=-1, keepdims=True)  # t.softmax(scores, dim=-1)
    Z = np.einsum("bnqk,bqnh->bqnh", scores, V)  # the values' token axis labelled Qseq
    b, s, n, h = Z.shape
    return Z.reshape(b, s, n * h)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    out = X @ np.concatenate([W_Q, W_K, W_V], axis=-1)  # self.qkv(x)
    Q, K, V = _tensor_split3(out)
    Z = _multihead_masked_attention(Q, K, V, num_heads)
    return Z @ W_O  # self.ff(Z)
