"""Port of mathcast/LAB-P1-04, models/attention.py and utils/mask.py (commit 766b457): scaled_dot_product_attention
and generate_causal_mask, a student's solution of iCEV (Instituto de Ensino Superior iCEV, Teresina, Brazil) "Tópicos
em Inteligência Artificial" 2026.1, Lab P1-04 "O Transformer Completo From Scratch" (in PyTorch; the student's
encoder and decoder call this attention on the whole width, one head, so no multi-head attention of theirs exists).

Ports scaled_dot_product_attention and causal_mask. Conventions kept: scaled_dot_product_attention(Q, K, V, mask=None,
debug=False): `d_k = Q.size(-1)`, `torch.matmul(Q, K.transpose(-2, -1)) / math.sqrt(d_k)` (no scale argument), then
`mask = mask.unsqueeze(0)` (whatever the mask's rank: it gains a leading axis of length 1) and `scores =
scores.masked_fill(mask == 0, float('-inf'))` (True = may attend; out of place, so torch broadcasts the scores and
the mask together: scores with no more axes than the unsqueezed mask gain its leading axis, and a (B, 1, N, N) mask
becomes (1, B, 1, N, N)), `F.softmax(scores, dim=-1)` (an all -inf row gives NaN), returns `(output, attention)`;
generate_causal_mask(size): `torch.tril(torch.ones(size, size))` (a float 0/1 mask, square).

Left out: the `debug` printout. Added for the contract only: a `scale` parameter never read (so the contract's calls
reach the student's code); causal_mask(n_q, n_k) calls generate_causal_mask(n_q) (n_k unused). The reference's
multi_head_attention calls the student's attention with its (..., 1, N, N) head mask, which the unsqueeze(0) makes
one axis longer than the scores of a 2-D input or than a per-sequence mask's.
"""

import numpy as np


def _softmax_last(x):  # F.softmax(dim=-1): an all -inf row gives -inf - (-inf) = NaN
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    d_k = Q.shape[-1]
    scores = np.matmul(Q, np.swapaxes(K, -2, -1)) / np.sqrt(d_k)
    if mask is not None:
        mask = np.expand_dims(mask, 0)  # mask.unsqueeze(0)
        scores = np.where(mask == 0, -np.inf, scores)  # out-of-place masked_fill broadcasts both
    attention = _softmax_last(scores)
    output = np.matmul(attention, V)
    return output, attention


def causal_mask(n_q, n_k=None):
    size = n_q
    return np.tril(np.ones((size, size)))
