"""Port of anjandhungana/udlbook, Notebooks/Chap12/12_1_Self_Attention.ipynb and
Notebooks/Chap12/12_2_Multihead_Self_Attention.ipynb (commit 28c850e): softmax, scaled_dot_product_self_attention and
multihead_scaled_self_attention, a reader's solutions of the notebooks of Simon Prince's book "Understanding Deep
Learning" (udlbook), chapter 12 (transformers), numpy.

The book stores the N tokens in the COLUMNS of a (D, N) matrix and projects them with `omega @ X + beta`, omega a
(d, D) matrix; the contract's rows are the book's columns. Ported as: softmax (12.1's, written for a list of dot
products) as softmax; steps 2 to 5 of scaled_dot_product_self_attention (after its projections `Q =
np.matmul(omega_q, X) + beta_q`, likewise K and V) as scaled_dot_product_attention; 12.2's
multihead_scaled_self_attention as multi_head_attention. Not ported: 12.1's unscaled self_attention, its loop over
tokens and its permutation check (no contract function).

Conventions kept: softmax is `exp_values = np.exp(items_in)` (no max subtracted) and `items_out = exp_values /
np.sum(exp_values)` (one sum over the whole array; no axis, no temperature). scaled_dot_product_self_attention
computes `dot_products = np.matmul(Q.transpose(), K)` (one ROW per query; `.transpose()` reverses every axis),
`scaled_dot_products = dot_products / np.sqrt(D)` with the notebook's global `D = 4` (12.1: `N = 3`, `D = 4`; a
scale of 1/2 whatever the widths), `attention = softmax_cols(scaled_dot_products)` (12.1's given softmax_cols: exp,
then each COLUMN divided by its sum replicated with `np.matmul(np.ones((data_in.shape[0],1)), denom[np.newaxis,:])`;
here a column is one key over the queries) and `X_prime = np.matmul(V, attention)`: the (d_v, N_k) values times the
(N_q, N_k) attention, which raises unless N_q = N_k and then gives output j the values weighted by the softmax over
the queries i of q_i . k_j (the queries' and keys' roles swapped). multihead_scaled_self_attention takes the two
heads' weights (omega_q1 ... beta_k2: the notebook's `H = 2`), computes `softmax_cols(K1.T @ Q1 / np.sqrt(H_D))`
with the notebook's global `H_D = int(D/H)` = 4 (12.2: `D = 8`, `H = 2`; a scale of 1/2 whatever the widths) and
12.2's softmax_cols (the student's: `exp_values / denom` with `denom = np.sum(exp_values, axis = 0)` broadcast, no
max subtracted), `head1_output = V1 @ attention_weights1`, likewise head 2, `np.concatenate((head1_output,
head2_output), axis=0)` and `omega_c @ concatenated_output`; no mask anywhere.

Left out: the notebooks' prints and test cells. Added for the contract only: the book's (d, N) arrays are the
contract's arrays with their last two axes swapped (np.swapaxes, on the way in and on the way out), omega = W.T,
head h's omegas are columns [h*d, (h+1)*d) of W_Q, W_K, W_V with d = W.shape[1] // num_heads (heads 0 and 1 only:
the function has parameters for two), omega_c = W_O.T, the biases are zeros of the book's shape (d, 1);
scaled_dot_product_attention returns (X_prime, weights), the weights being the student's attention matrix as
`np.matmul(V, attention)` reads it (one column per output: transposed back), and takes `mask` and `scale` parameters
(never read); multi_head_attention takes `mask` (never read).
"""

import numpy as np

D = 4  # 12.1's global `D = 4`
H_D = 4  # 12.2's global `H_D = int(D/H)` with `D = 8`, `H = 2`


def _book(M):  # the contract's (..., N, d) rows as the book's (..., d, N) columns, and back
    return np.swapaxes(M, -1, -2)


def _omega(W, h, width):  # the book's (width, D) omega of head h
    return W[:, h * width:(h + 1) * width].T


def softmax(Z, axis=-1, temperature=1.0):
    items_in = Z
    exp_values = np.exp(items_in)
    items_out = exp_values / np.sum(exp_values)
    return items_out


def _softmax_cols_12_1(data_in):  # 12.1's given softmax_cols
    exp_values = np.exp(data_in)
    denom = np.sum(exp_values, axis=0)
    denom = np.matmul(np.ones((data_in.shape[0], 1)), denom[np.newaxis, :])
    softmax = exp_values / denom
    return softmax


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    Q, K, V = _book(Q), _book(K), _book(V)  # np.matmul(omega_q, X) + beta_q, ...: (d, N)
    dot_products = np.matmul(Q.transpose(), K)
    scaled_dot_products = dot_products / np.sqrt(D)
    attention = _softmax_cols_12_1(scaled_dot_products)
    X_prime = np.matmul(V, attention)
    return _book(X_prime), _book(attention)


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
    attention_weights1 = _softmax_cols_12_2(K1.T @ Q1 / np.sqrt(H_D))
    head1_output = V1 @ attention_weights1

    Q2 = omega_q2 @ X + beta_q2
    K2 = omega_k2 @ X + beta_k2
    V2 = omega_v2 @ X + beta_v2
    attention_weights2 = _softmax_cols_12_2(K2.T @ Q2 / np.sqrt(H_D))
    head2_output = V2 @ attention_weights2

    concatenated_output = np.concatenate((head1_output, head2_output), axis=0)
    X_prime = omega_c @ concatenated_output
    return _book(X_prime)
