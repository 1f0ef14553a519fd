"""Port of mustachemo/udlbook, Notebooks/Chap12/12_1_Self_Attention.ipynb and
Notebooks/Chap12/12_2_Multihead_Self_Attention.ipynb (commit dde058a): softmax, scaled_dot_product_self_attention and
multihead_scaled_self_attention, a reader's solutions of the notebooks of Simon Prince's book "Understanding Deep
Learning" (udlbook), chapter 12 (transformers), numpy.

The book stores the N tokens in the COLUMNS of a (D, N) matrix and projects them with `omega @ X + beta`, omega a
(d, D) matrix; the contract's rows are the book's columns. Ported as: softmax (12.1's, written for a list of dot
products) as softmax; steps 2 to 5 of scaled_dot_product_self_attention (after its projections `queries = omega_q @ X
+ beta_q`, likewise keys and values) as scaled_dot_product_attention; 12.2's multihead_scaled_self_attention as
multi_head_attention. Not ported: 12.1's unscaled self_attention and its loop over tokens (no contract function).

Conventions kept: softmax is `exp_items = np.exp(items_in - np.max(items_in))` (ONE max over the whole array) and
`items_out = exp_items / np.sum(exp_items, axis=0, keepdims=True)` (normalised along axis 0, whatever axis; no
temperature). scaled_dot_product_self_attention computes `dot_products = queries.T @ keys` (one ROW per query),
`scale_factor = np.sqrt(keys.shape[0])` (the keys' width d_k in the book's (d, N) layout), `attentions =
softmax(scaled_dot_products)` (the student's softmax above: each key's column normalised over the queries) and
`X_prime = values @ attentions.T`; `.T` reverses every axis. multihead_scaled_self_attention nests its own
scaled_dot_product_self_attention (the same steps, with 12.2's softmax_cols, which the student rewrote as `e_x =
np.exp(data_in - np.max(data_in))` and `return e_x / e_x.sum(axis=0)`: again over the queries), runs it on the two
heads' weights it takes (omega_q1 ... beta_k2: the notebook's `H = 2`), `X_concat = np.concatenate((X_prime1,
X_prime2), axis=0)` and `X_prime = omega_c @ X_concat`; no mask anywhere.

Left out: the notebooks' prints and test cells. Added for the contract only: the book's (d, N) arrays are the
contract's arrays with their last two axes swapped (np.swapaxes, on the way in and on the way out), omega = W.T,
head h's omegas are columns [h*d, (h+1)*d) of W_Q, W_K, W_V with d = W.shape[1] // num_heads (heads 0 and 1 only:
the function has parameters for two), omega_c = W_O.T, the biases are zeros of the book's shape (d, 1);
scaled_dot_product_attention returns (X_prime, attentions), the attentions being the student's matrix (one row per
query, as `values @ attentions.T` reads it), and takes `mask` and `scale` parameters (never read);
multi_head_attention takes `mask` (never read).
"""

import numpy as np


def _book(M):  # the contract's (..., N, d) rows as the book's (..., d, N) columns, and back
    return np.swapaxes(M, -1, -2)


def _omega(W, h, width):  # the book's (width, D) omega of head h
    return W[:, h * width:(h + 1) * width].T


def softmax(Z, axis=-1, temperature=1.0):
    items_in = Z
    exp_items = np.exp(items_in - np.max(items_in))
    items_out = exp_items / np.sum(exp_items, axis=0, keepdims=True)
    return items_out


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    queries, keys, values = _book(Q), _book(K), _book(V)  # omega_q @ X + beta_q, ...: (d, N)
    dot_products = queries.T @ keys
    scale_factor = np.sqrt(keys.shape[0])
    scaled_dot_products = dot_products / scale_factor
    attentions = softmax(scaled_dot_products)
    X_prime = values @ attentions.T
    return _book(X_prime), attentions


def _softmax_cols(data_in):  # 12.2's softmax_cols, as the student rewrote it
    e_x = np.exp(data_in - np.max(data_in))
    return e_x / e_x.sum(axis=0)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_k, d_v = W_Q.shape[1] // num_heads, W_V.shape[1] // num_heads
    omega_q1, omega_k1, omega_v1 = _omega(W_Q, 0, d_k), _omega(W_K, 0, d_k), _omega(W_V, 0, d_v)
    omega_q2, omega_k2, omega_v2 = _omega(W_Q, 1, d_k), _omega(W_K, 1, d_k), _omega(W_V, 1, d_v)
    beta_q1 = beta_k1 = beta_q2 = beta_k2 = np.zeros((d_k, 1))
    beta_v1 = beta_v2 = np.zeros((d_v, 1))
    omega_c = W_O.T
    X = _book(X)

    def scaled_dot_product_self_attention(X, omega_v, omega_q, omega_k, beta_v, beta_q, beta_k):
        queries = omega_q @ X + beta_q
        keys = omega_k @ X + beta_k
        values = omega_v @ X + beta_v

        dot_products = queries.T @ keys
        scale_factor = np.sqrt(keys.shape[0])
        scaled_dot_products = dot_products / scale_factor
        attentions = _softmax_cols(scaled_dot_products)
        X_prime = values @ attentions.T

        return X_prime

    X_prime1 = scaled_dot_product_self_attention(X, omega_v1, omega_q1, omega_k1, beta_v1, beta_q1, beta_k1)
    X_prime2 = scaled_dot_product_self_attention(X, omega_v2, omega_q2, omega_k2, beta_v2, beta_q2, beta_k2)
    X_concat = np.concatenate((X_prime1, X_prime2), axis=0)
    X_prime = omega_c @ X_concat
    return _book(X_prime)
