"""Port of JoaoNeto694/Laborat-rio-T-cnico-04-O-Transformer-Completo-From-Scratch-, transformer.py (commit 16760ce):
softmax, scaled_dot_product_attention, MultiHeadAttention and create_causal_mask, a student's solution of iCEV
(Instituto de Ensino Superior iCEV, Teresina, Brazil) "Tópicos em Inteligência Artificial" 2026.1, Lab P1-04 "O
Transformer Completo From Scratch" (numpy; the file gathers the student's code of Labs 1 to 3).

Ports softmax, causal_mask, scaled_dot_product_attention and multi_head_attention. Conventions kept: `def
softmax(x)` has no axis and no temperature, `np.exp(x - np.max(x, axis=-1, keepdims=True))` over the last axis
(an all -inf row gives -inf - (-inf) = NaN); scaled_dot_product_attention(Q, K, V, mask=None): `scores = Q @
K.swapaxes(-1, -2)`, `scores / np.sqrt(d_k_local)` with `d_k_local = Q.shape[-1]` (no scale argument), `scores =
scores + mask` (the course's masks are additive 0/-inf: a boolean mask adds 0/1 and blocks nothing), the student's
softmax, returns `(output, weights)`; MultiHeadAttention(d_model, h): `self.d_k = d_model // h`, per-head weights
`W_Q[i]`, `W_K[i]`, `W_V[i]` of shape (d_model, d_k) (values too), `Q_cat = np.concatenate(Qs, axis=-1)` then `Q =
Q_cat @ self.W_Q_G` (likewise K and V, with "global" (d_model, d_model) matrices), then ONE call
`scaled_dot_product_attention(Q, K, V, mask=mask)` over the full concatenated width (the heads are never attended
apart; the scale is 1/sqrt of that width) and `return output`: there is no output projection;
create_causal_mask(seq_len): `np.triu(np.full((seq_len, seq_len), -np.inf), k=1)` (additive float, square).

Left out: nothing else runs in these functions (the weights' random initialisation is replaced). Added for the
contract only: a `scale` parameter never read and softmax's `axis` and `temperature` parameters never read (so the
contract's calls reach the student's code); causal_mask(n_q, n_k) calls the student's create_causal_mask(n_q) (n_k
unused); the student's constructor gets d_model = X.shape[-1] and h = num_heads, head i's W_Q[i], W_K[i] and W_V[i]
are columns [i*d_k, (i+1)*d_k) of W_Q, W_K and W_V with the student's d_k = d_model // h; the global W_Q_G, W_K_G and
W_V_G have no counterpart in the contract and are the (d_model, d_model) identity (the product with them is kept, so
a concatenation narrower than d_model raises as the student's would); W_O is never read (self-attention: X is the
input).
"""

import numpy as np


def softmax(Z, axis=-1, temperature=1.0):
    x = Z
    e_x = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e_x / e_x.sum(axis=-1, keepdims=True)


def causal_mask(n_q, n_k=None):
    seq_len = n_q
    return np.triu(np.full((seq_len, seq_len), -np.inf), k=1)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    d_k_local = Q.shape[-1]
    scores = Q @ np.swapaxes(K, -1, -2)
    scores = scores / np.sqrt(d_k_local)
    if mask is not None:
        scores = scores + mask
    weights = softmax(scores)
    output = weights @ V
    return output, weights


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model, h = X.shape[-1], num_heads
    d_k = d_model // h
    W_Q_G = W_K_G = W_V_G = np.eye(d_model)  # the student's global matrices: none in the contract
    Qs, Ks, Vs = [], [], []
    for i in range(h):
        cols = slice(i * d_k, (i + 1) * d_k)
        Qs.append(X @ W_Q[:, cols])
        Ks.append(X @ W_K[:, cols])
        Vs.append(X @ W_V[:, cols])
    Q_cat = np.concatenate(Qs, axis=-1)
    K_cat = np.concatenate(Ks, axis=-1)
    V_cat = np.concatenate(Vs, axis=-1)
    Q = Q_cat @ W_Q_G
    K = K_cat @ W_K_G
    V = V_cat @ W_V_G
    output, _ = scaled_dot_product_attention(Q, K, V, mask=mask)
    return output
