"""Port of LFZ121/UDL-notebook, Notebooks/Chap12/12_1_Self_Attention.ipynb and
Notebooks/Chap12/12_2_Multihead_Self_Attention.ipynb (commit fe90beb): softmax, scaled_dot_product_self_attention and
multihead_scaled_self_attention, a reader's solutions of the notebooks of Simon Prince's book "Understanding Deep
Learning" (udlbook), chapter 12 (transformers), numpy.

The book stores the N tokens in the COLUMNS of a (D, N) matrix and projects them with `omega @ X + beta`, omega a
(d, D) matrix; the contract's rows are the book's columns. Ported as: softmax (12.1's, written for a list of dot
products) as softmax; step 1 of scaled_dot_product_self_attention (its projections) as qkv_project and its steps 2
to 5 as scaled_dot_product_attention; 12.2's multihead_scaled_self_attention as multi_head_attention. Not ported:
12.1's unscaled self_attention (the same steps, unscaled) and its loop over tokens (no contract function).

Conventions kept: softmax is `exp_values = np.exp(items_in)` (no max subtracted) and `items_out = exp_values /
np.sum(exp_values)` (one sum over the whole array; no axis, no temperature). scaled_dot_product_self_attention
projects with `Q = beta_q @ np.ones((1, N)) + omega_q @ X` (likewise K and V), the bias broadcast over the
notebook's global `N = 3` tokens (12.1: `N = 3`, `D = 4`), not over X's: the sum raises unless X has 3 tokens (or
1, which it then widens to 3); then `S = (K.T @ Q) / np.sqrt(D)` with the global `D = 4` (a scale of 1/2 whatever
the widths; `.T` reverses every axis), `A = softmax_cols(S)` (12.1's given softmax_cols: exp with no max subtracted,
each column, one query over the keys, divided by its sum replicated with `np.matmul(np.ones((data_in.shape[0],1)),
denom[np.newaxis,:])`) and `X_prime = V @ A`. multihead_scaled_self_attention takes the two heads' weights
(omega_q1 ... beta_k2: the notebook's `H = 2`), projects with `Q1 = omega_q1 @ X + beta_q1` (broadcast: any N),
computes `S1 = (K1.T @ Q1) / np.sqrt(H_D)` with the global `H_D = int(D/H)` = 4 (12.2: `D = 8`, `H = 2`; the
student's comment: "H_D 在外部定义为 4，所以缩放因子是 2.0", a scale of 1/2 whatever the widths), `A1 =
softmax_cols(S1)` (12.2's softmax_cols as in the notebook: `exp_values / denom` with `denom = np.sum(exp_values,
axis = 0)` broadcast, no max subtracted), `head1 = V1 @ A1`, likewise head 2, `concatenated =
np.vstack((head1, head2))` and `X_prime = omega_c @ concatenated`; no mask anywhere.

Left out: the notebooks' prints and test cells. Added for the contract only: the book's (d, N) arrays are the
contract's arrays with their last two axes swapped (np.swapaxes, on the way in and on the way out), omega = W.T,
head h's omegas are columns [h*d, (h+1)*d) of W_Q, W_K, W_V with d = W.shape[1] // num_heads (heads 0 and 1 only:
the function has parameters for two), omega_c = W_O.T, the biases are zeros of the book's shape (d, 1) (the
contract has none; kept because the student's broadcast of them reads the global N); scaled_dot_product_attention
returns (X_prime, weights), the weights being the student's A as `V @ A` reads it (one column per output: transposed
back), and takes `mask` and `scale` parameters (never read); multi_head_attention takes `mask` (never read).
"""

import numpy as np

N = 3  # 12.1's global `N = 3`
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


def qkv_project(X, W_Q, W_K, W_V):
    X = _book(X)
    omega_q, omega_k, omega_v = W_Q.T, W_K.T, W_V.T
    beta_q, beta_k, beta_v = np.zeros((W_Q.shape[1], 1)), np.zeros((W_K.shape[1], 1)), np.zeros((W_V.shape[1], 1))
    Q = beta_q @ np.ones((1, N)) + omega_q @ X
    K = beta_k @ np.ones((1, N)) + omega_k @ X
    V = beta_v @ np.ones((1, N)) + omega_v @ X
    return _book(Q), _book(K), _book(V)


def _softmax_cols_12_1(data_in):  # 12.1's given softmax_cols
    exp_values = np.exp(data_in)
    denom = np.sum(exp_values, axis=0)
    denom = np.matmul(np.ones((data_in.shape[0], 1)), denom[np.newaxis, :])
    softmax = exp_values / denom
    return softmax


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    Q, K, V = _book(Q), _book(K), _book(V)  # beta_q @ np.ones((1, N)) + omega_q @ X, ...: (d, N)
    S = (K.T @ Q) / np.sqrt(D)
    A = _softmax_cols_12_1(S)
    X_prime = V @ A
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
    S1 = (K1.T @ Q1) / np.sqrt(H_D)
    A1 = _softmax_cols_12_2(S1)
    head1 = V1 @ A1

    Q2 = omega_q2 @ X + beta_q2
    K2 = omega_k2 @ X + beta_k2
    V2 = omega_v2 @ X + beta_v2
    S2 = (K2.T @ Q2) / np.sqrt(H_D)
    A2 = _softmax_cols_12_2(S2)
    head2 = V2 @ A2

    concatenated = np.vstack((head1, head2))
    X_prime = omega_c @ concatenated
    return _book(X_prime)
