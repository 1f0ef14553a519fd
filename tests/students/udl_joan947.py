"""Port of Joan947/UndDL_NotebooksSolved, Notebooks/Chap12/12_1_Self_Attention.ipynb and
Notebooks/Chap12/12_2_Multihead_Self_Attention.ipynb (commit 457e7c1): softmax, scaled_dot_product_self_attention and
multihead_scaled_self_attention, a reader's solutions of the notebooks of Simon Prince's book "Understanding Deep
Learning" (udlbook), chapter 12 (transformers), numpy.

The book stores the N tokens in the COLUMNS of a (D, N) matrix and projects them with `omega @ X + beta`, omega a
(d, D) matrix, and its functions return X_prime in the same (D, N) layout; the contract's rows are the book's
columns. Ported as: softmax (12.1's, written for a list of dot products) as softmax; steps 2 to 5 of
scaled_dot_product_self_attention (after its projections `Q = omega_q @ X + beta_q`, likewise K and V) as
scaled_dot_product_attention; 12.2's multihead_scaled_self_attention as multi_head_attention. Not ported: 12.1's
unscaled self_attention and its loop over tokens (no contract function).

Conventions kept: softmax is `shifted = items_in - np.max(items_in)` (one max over the whole array), `exps =
np.exp(shifted)`, `items_out = exps / np.sum(exps)` (one sum over the whole array; no axis, no temperature).
scaled_dot_product_self_attention computes `scores = Q.T @ K` (one row per query; `.T` reverses every axis), `D_q =
Q.shape[0]` and `scores /= np.sqrt(D_q)` (the queries' width d_k in the book's (d, N) layout), `A =
softmax_cols(scores.T)` (12.1's given softmax_cols: exp with no max subtracted, each column, one query over the keys,
divided by its sum) and returns `X_prime = (V @ A).T`: the outputs as ROWS, (N_q, d_v), where the book's layout (its
input's) wants one column per token. multihead_scaled_self_attention takes the two heads' weights (omega_q1 ...
beta_k2: the notebook's `H = 2`), computes per head `scores1 = Q1.T @ K1`, `scores1 /= np.sqrt(Q1.shape[0])`, `A1 =
softmax_cols(scores1.T)` (12.2's softmax_cols as in the notebook: `exp_values / denom` with `denom =
np.sum(exp_values, axis = 0)` broadcast, no max subtracted) and `head1 = (V1 @ A1)` (columns: here the heads stay in
the book's layout), then `concat = np.vstack([head1, head2])` and `X_prime = omega_c @ concat`; no mask anywhere.

Left out: the notebooks' prints and test cells. Added for the contract only: the book's (d, N) arrays are the
contract's arrays with their last two axes swapped (np.swapaxes, on the way in and on the way out: so the student's
row-layout X_prime comes out transposed), omega = W.T, head h's omegas are columns [h*d, (h+1)*d) of W_Q, W_K, W_V
with d = W.shape[1] // num_heads (heads 0 and 1 only: the function has parameters for two), omega_c = W_O.T, the
biases are zeros of the book's shape (d, 1); scaled_dot_product_attention returns (X_prime, weights), the weights
being the student's A as `V @ A` reads it (one column per output: transposed back), and takes `mask` and `scale`
parameters (never read); multi_head_attention takes `mask` (never read).
"""

import numpy as np


def _book(M):  # the contract's (..., N, d) rows as the book's (..., d, N) columns, and back
    return np.swapaxes(M, -1, -2)


def _omega(W, h, width):  # the book's (width, D) omega of head h
    return W[:, h * width:(h + 1) * width].T


def softmax(Z, axis=-1, temperature=1.0):
    items_in = Z
    shifted = items_in - np.max(items_in)
    exps = np.exp(shifted)
    items_out = exps / np.sum(exps)
    return items_out


def _softmax_cols_12_1(data_in):  # 12.1's given softmax_cols
    exp_values = np.exp(data_in)
    denom = np.sum(exp_values, axis=0)
    denom = np.matmul(np.ones((data_in.shape[0], 1)), denom[np.newaxis, :])
    softmax = exp_values / denom
    return softmax


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    Q, K, V = _book(Q), _book(K), _book(V)  # omega_q @ X + beta_q, ...: (d, N)
    scores = Q.T @ K
    D_q = Q.shape[0]
    scores /= np.sqrt(D_q)
    A = _softmax_cols_12_1(scores.T)
    X_prime = (V @ A).T
    return _book(X_prime), _book(A)


def _softmax_cols_12_2(data_in):  # 12.2's softmax_cols, as in the student's notebook
    exp_values = np.exp(data_in)
    denom = np.sum(exp_values, axis=0)
    softmax = exp_values / denom
    return softmax


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_k, d_v = W_Q.shape[1] // num_heads, W_V.shape[1] // num_heads
    omega_q1, omega_k1, omega_v1 = _omega(W_Q, 0, d_k), _omega(W_K, 0, d_k), _omega(W_V, 0, d_v)
    omega_q2, omega_k2, omega_v2 = _omega(W_Q, 1, d_k), _omega(W_K, 1, d_k), _omega(W_V, 1, d_v)
    beta_q1 = beta_k1 = beta_q2 = beta_k2 = np.zeros((d_k, 1))
    beta_v1 = beta_v2 = np.zeros((d_v, 1))
    omega_c = W_O.T
    X = _book(X)

    Q1 = omega_q1 @ X + beta_q1
    K1 = omega_k1 @ X + beta_k1
    V1 = omega_v1 @ X + beta_v1
    scores1 = Q1.T @ K1
    scores1 /= np.sqrt(Q1.shape[0])
    A1 = _softmax_cols_12_2(scores1.T)
    head1 = (V1 @ A1)

    Q2 = omega_q2 @ X + beta_q2
    K2 = omega_k2 @ X + beta_k2
    V2 = omega_v2 @ X + beta_v2
    scores2 = Q2.T @ K2
    scores2 /= np.sqrt(Q2.shape[0])
    A2 = _softmax_cols_12_2(scores2.T)
    head2 = (V2 @ A2)

    concat = np.vstack([head1, head2])
    X_prime = omega_c @ concat
    return _book(X_prime)
