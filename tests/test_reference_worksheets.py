"""reference/attention.py reproduces the worksheet numbers (listed in docs/assignment.md).

Dis 10 = CS 189 Discussion 10 (seeds 000, 001), PS4 = CSCI 5922 problem set 4 (seed 002),
Dis 11 = CS 189 Discussion 11 (seed 003), Q&A = the previous-token head answer (seed 004).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from tests.homework import module as homework_module

ref = homework_module('attention')


pytestmark = pytest.mark.filterwarnings("error")

INF = np.inf

# ---- Dis 10 Q1 ---------------------------------------------------------------------------------

DIS10_X = np.array([[2.0, 3.0], [-1.0, 0.0], [1.0, -2.0]])
DIS10_W_Q = np.array([[1.0, 0.0, 2.0], [0.0, 1.0, -3.0]])
DIS10_W_K = np.array([[0.0, 0.0, -1.0], [-2.0, 0.0, 1.0]])
DIS10_W_V = np.array([[8.0, 0.0], [0.0, 9.0]])


def test_dis10_q1a_queries_keys_and_values_of_all_three_tokens():
    Q, K, V = ref.qkv_project(DIS10_X, DIS10_W_Q, DIS10_W_K, DIS10_W_V)
    np.testing.assert_array_equal(Q, [[2, 3, -5], [-1, 0, -2], [1, -2, 8]])
    np.testing.assert_array_equal(K, [[-6, 0, 1], [0, 0, 1], [4, 0, -3]])
    np.testing.assert_array_equal(V, [[16, 27], [-8, 0], [8, -18]])
    # seed 001's handwritten q_2 = [-1, 0, 2] is wrong: 2*(-1) + (-3)*0 = -2.
    assert Q[1, 2] == -2.0


def test_dis10_q1b_scores_of_token_3_and_the_full_score_matrix():
    Q, K, _ = ref.qkv_project(DIS10_X, DIS10_W_Q, DIS10_W_K, DIS10_W_V)
    Z = ref.attention_scores(Q, K)
    np.testing.assert_array_equal(Z[2], [2, 8, -20])  # z_3
    np.testing.assert_array_equal(Z, [[-17, -5, 23], [4, -2, 2], [2, 8, -20]])  # (e): Z = Q K^T


def test_dis10_q1c_unscaled_softmax_weights_and_output_of_token_3():
    Q, K, V = ref.qkv_project(DIS10_X, DIS10_W_Q, DIS10_W_K, DIS10_W_V)
    out, weights = ref.scaled_dot_product_attention(Q, K, V, scale=1.0)  # the worksheet does not scale
    a_3 = weights[2]
    np.testing.assert_allclose(a_3[:2], [0.00247, 0.99753], atol=5e-6)
    np.testing.assert_allclose(a_3[2], 6.90e-13, rtol=5e-3)
    total = math.exp(2) + math.exp(8) + math.exp(-20)
    np.testing.assert_allclose(a_3, [math.exp(z) / total for z in (2, 8, -20)], rtol=1e-13, atol=0)
    np.testing.assert_allclose(out[2], [-7.94, 0.067], atol=5e-3)
    np.testing.assert_allclose(out[2], a_3 @ V, rtol=1e-14, atol=0)  # (f): row i of A V


# ---- PS4 Q3 ------------------------------------------------------------------------------------

H = Fraction(1, 2)
PS4_I = [[1, -1, 0, 2], [0, -1, 2, 1], [-2, 2, -1, 0]]
PS4_W_Q = [[0, 1], [1, 0], [-1, 0], [1, 1]]
PS4_W_K = [[1, -H], [0, 1], [H, -H], [1, H]]
PS4_W_V = [[1, H], [-H, 0], [-1, 2], [H, -1]]


def frac_matmul(A, B):
    """Exact product of two nested lists of numbers, by hand."""
    return [
        [sum(Fraction(A[i][t]) * Fraction(B[t][j]) for t in range(len(B))) for j in range(len(B[0]))]
        for i in range(len(A))
    ]


def as_float(M):
    return np.array([[float(v) for v in row] for row in M])


# What seed 002 (the handwritten solution) got wrong, recomputed exactly below:
#   Q:  seed [[1, 3], [-1, 1], [5/2, -2]]     truth [[1, 3], [-2, 1], [3, -2]]
#       (it multiplied by a column that is not W_Q's; rows 2 and 3 are wrong)
#   K:  seed K12 = -1, K21 = -1, K32 = 3/2     truth K = [[3, -1/2], [2, -3/2], [-5/2, 7/2]]
#   QK^T: seed [[1.5, 2.5, 8], [-3.5, -3.5, 6], [8.5, 8, -13.25]]
#         truth [[1.5, -2.5, 8], [-6.5, -5.5, 8.5], [10, 9, -14.5]]
#   weights of token 3: seed [0.62, 0.38, 0]   truth [e/(1+e), 1/(1+e), ~1.7e-11] = [0.731, 0.269, 0]
#   output of token 3:  seed [1.17, 0.21]      truth [1.5587, -0.2898]
#   V and the (rounded) output rows 1 and 2, [-2, -3], are right.
PS4_SEED_Q = [[1, 3], [-1, 1], [2.5, -2]]
PS4_SEED_LAST_OUTPUT = [1.17, 0.21]


def test_ps4_q3_projections_and_scores_are_exact():
    Q, K, V = (frac_matmul(PS4_I, W) for W in (PS4_W_Q, PS4_W_K, PS4_W_V))
    assert Q == [[1, 3], [-2, 1], [3, -2]]
    assert K == [[3, -H], [2, -3 * H], [-5 * H, 7 * H]]
    assert V == [[5 * H, -3 * H], [-1, 3], [-2, -3]]
    Z = frac_matmul(Q, [list(col) for col in zip(*K)])
    assert Z == [[3 * H, -5 * H, 8], [-13 * H, -11 * H, 17 * H], [10, 9, -29 * H]]
    # halves are exact in float64, so the reference must match bit for bit
    got = ref.qkv_project(as_float(PS4_I), as_float(PS4_W_Q), as_float(PS4_W_K), as_float(PS4_W_V))
    for g, want in zip(got, (Q, K, V)):
        np.testing.assert_array_equal(g, as_float(want))
    np.testing.assert_array_equal(ref.attention_scores(got[0], got[1]), as_float(Z))
    assert not np.array_equal(got[0], PS4_SEED_Q)


def test_ps4_q3_unscaled_attention_map_and_outputs():
    Q, K, V = (frac_matmul(PS4_I, W) for W in (PS4_W_Q, PS4_W_K, PS4_W_V))
    Z = frac_matmul(Q, [list(col) for col in zip(*K)])
    weights = []
    for row in Z:
        top = max(row)
        e = [math.exp(float(z - top)) for z in row]
        weights.append([x / math.fsum(e) for x in e])
    out = [[math.fsum(w[j] * float(V[j][c]) for j in range(3)) for c in range(2)] for w in weights]
    ref_out, ref_w = ref.scaled_dot_product_attention(as_float(Q), as_float(K), as_float(V), scale=1.0)
    np.testing.assert_allclose(ref_w, weights, rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(ref_out, out, rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(ref_w[2], [math.e / (1 + math.e), 1 / (1 + math.e), 0], atol=1e-10)
    np.testing.assert_allclose(ref_out[2], [1.5587, -0.2898], atol=1e-4)
    np.testing.assert_allclose(ref_out[:2], [[-2, -3], [-2, -3]], atol=1e-2)  # the seed's rounded rows
    assert np.abs(ref_out[2] - PS4_SEED_LAST_OUTPUT).max() > 0.3  # the seed's last row is wrong


# ---- Dis 11 Q2: four pre-softmax matrices and temperature ---------------------------------------

DIS11_A = np.full((4, 4), 2.0)
DIS11_B = np.ones((4, 4)) + 9.0 * np.eye(4)
DIS11_C = np.where(np.tril(np.ones((4, 4))) == 1, 5.0, -INF)
DIS11_D = np.array(
    [[-INF, 5, -INF, -INF], [-INF, -INF, 5, -INF], [-INF, -INF, -INF, 5], [5, -INF, -INF, -INF]]
)


def att_diag(T):
    """Seed 003's closed form: weight of the diagonal of B at temperature T."""
    return 1.0 / (1.0 + 3.0 * math.exp(-9.0 / T))


def test_dis11_q2_matrix_a_gives_uniform_weights():
    np.testing.assert_allclose(ref.softmax(DIS11_A), np.full((4, 4), 0.25), rtol=1e-15)


def test_dis11_q2_matrix_b_concentrates_on_the_diagonal():
    P = ref.softmax(DIS11_B)
    np.testing.assert_allclose(np.diag(P), att_diag(1.0), rtol=1e-14)
    np.testing.assert_allclose(P[~np.eye(4, dtype=bool)], (1 - att_diag(1.0)) / 3, rtol=1e-12)
    # seed 003 quotes ~0.9997 and ~0.0001; the exact values are 0.99963 and 0.000123
    np.testing.assert_allclose([P[0, 0], P[0, 1]], [0.9997, 0.0001], atol=1e-4)


def test_dis11_q2_matrix_c_is_causal_and_uniform_over_the_past():
    np.testing.assert_array_equal(np.isfinite(DIS11_C), ref.causal_mask(4))
    expected = np.tril(np.ones((4, 4))) / np.arange(1, 5)[:, None]
    np.testing.assert_allclose(ref.softmax(DIS11_C), expected, rtol=1e-15, atol=0)


def test_dis11_q2_matrix_d_gives_the_cyclic_shift_permutation():
    np.testing.assert_array_equal(ref.softmax(DIS11_D), np.roll(np.eye(4), 1, axis=1))


@pytest.mark.parametrize("T", [0.05, 0.5, 1.0, 3.0, 30.0, 1e4])
def test_dis11_q2c_temperature_matches_the_closed_form(T):
    P = ref.softmax(DIS11_B, temperature=T)
    np.testing.assert_allclose(np.diag(P), att_diag(T), rtol=1e-13)
    np.testing.assert_allclose(P.sum(axis=-1), 1.0, rtol=1e-15)


@pytest.mark.parametrize("T", [1e-3, 1e-6, 1e-100])
def test_dis11_q2c_low_temperature_gives_one_hot_attention(T):
    np.testing.assert_array_equal(ref.softmax(DIS11_B, temperature=T), np.eye(4))


@pytest.mark.parametrize("T", [1e13, 1e50, 1e300])
def test_dis11_q2c_high_temperature_gives_uniform_attention(T):
    np.testing.assert_allclose(ref.softmax(DIS11_B, temperature=T), np.full((4, 4), 0.25), atol=1e-12)


def test_dis11_q2c_diagonal_weight_falls_as_temperature_rises():
    diags = [ref.softmax(DIS11_B, temperature=T)[0, 0] for T in np.geomspace(0.5, 1e3, 30)]
    assert all(a > b for a, b in itertools.pairwise(diags))
    assert diags[0] > 0.999 and diags[-1] < 0.26


# ---- Dis 11 Q1: RoPE in two dimensions ----------------------------------------------------------


@pytest.mark.parametrize("angle", [0.0, 0.4, -2.0, math.pi, 10.0])
def test_dis11_q1_rotation_matrix_is_counter_clockwise(angle):
    c, s = math.cos(angle), math.sin(angle)
    np.testing.assert_allclose(ref.rotation_matrix(angle), [[c, -s], [s, c]], rtol=0, atol=1e-15)
    np.testing.assert_allclose(ref.rotation_matrix(math.pi / 2) @ [1.0, 0.0], [0.0, 1.0], atol=1e-15)


def test_dis11_q1_rotations_compose_and_transpose_to_the_inverse():
    R = ref.rotation_matrix
    np.testing.assert_allclose(R(0.3).T, R(-0.3), atol=1e-15)
    np.testing.assert_allclose(R(0.3) @ R(1.1), R(1.4), atol=1e-15)


@pytest.mark.parametrize("base", [10000.0, 7.0])
@pytest.mark.parametrize("theta", [0.1, 1.0, 2.5])
def test_dis11_q1_rope_in_2d_is_r_of_n_theta_times_x_n(theta, base):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(5, 2))
    n = np.arange(1, 6)  # the worksheet counts tokens from 1
    got = ref.rope(X, n * theta, base=base)  # for d = 2, theta_0 = base ** 0 = 1
    for row, n_, x_n in zip(got, n, X):
        np.testing.assert_allclose(row, ref.rotation_matrix(n_ * theta) @ x_n, rtol=0, atol=1e-14)


@pytest.mark.parametrize("m, n, k", [(1, 3, 5), (4, 2, -3), (0, 0, 7), (6, 1, 100)])
def test_dis11_q1c_rope_dot_product_is_shift_invariant(m, n, k):
    rng = np.random.default_rng(1)
    x, y, theta = rng.normal(size=(1, 2)), rng.normal(size=(1, 2)), 0.7

    def dot(p, q):
        return float(ref.rope(x, [p * theta])[0] @ ref.rope(y, [q * theta])[0])

    np.testing.assert_allclose(dot(m, n), dot(m + k, n + k), atol=1e-12)
    np.testing.assert_allclose(dot(m, n), x[0] @ ref.rotation_matrix((n - m) * theta) @ y[0], atol=1e-12)


# ---- Dis 11 Q3: projection counts --------------------------------------------------------------


class TokenLog(ref.AttentionLayer):
    """AttentionLayer that also records which token each key projection was computed for."""

    def __init__(self, W_Q, W_K, W_V, X):
        super().__init__(W_Q, W_K, W_V)
        self.X, self.key_tokens = X, []

    def key(self, x):
        self.key_tokens.append(int(np.flatnonzero((self.X == x).all(axis=1))[0]))
        return super().key(x)


@pytest.mark.parametrize("N", [1, 2, 3, 7, 10])
def test_dis11_q3_key_projections_are_n_with_cache_and_triangular_without(N):
    rng = np.random.default_rng(N)
    W, X = [rng.normal(size=(4, 3)) for _ in range(3)], rng.normal(size=(N, 4))
    cached, naive = TokenLog(*W, X), TokenLog(*W, X)
    ref.generate_cached(cached, X)
    ref.generate_naive(naive, X)
    assert cached.calls == {"query": N, "key": N, "value": N}
    assert naive.calls == {"query": N, "key": N * (N + 1) // 2, "value": N * (N + 1) // 2}
    assert cached.key_tokens.count(0) == 1
    assert naive.key_tokens.count(0) == N  # Q3(a): without a cache, y_1's key is computed N times


# ---- Q&A (seed 004): a previous-token head ------------------------------------------------------

VOCAB = ["Hello", "World", ".", "!", "Bye"]
SENTENCE = ["Hello", "World", ".", "Hello", "!", "Bye", "World"]


def previous_token_head(n_pos):
    """Residual = [one-hot token | one-hot position]; W_K reads the position, W_Q the shifted
    position (position n asks for n - 1), W_V the token."""
    n_tok = len(VOCAB)
    W_K = np.vstack([np.zeros((n_tok, n_pos)), np.eye(n_pos)])
    W_Q = np.vstack([np.zeros((n_tok, n_pos)), np.eye(n_pos, k=-1)])  # row n -> column n - 1
    W_V = np.vstack([np.eye(n_tok), np.zeros((n_pos, n_tok))])
    return W_Q, W_K, W_V


def residual_stream(tokens):
    N = len(tokens)
    tok = np.eye(len(VOCAB))[[VOCAB.index(t) for t in tokens]]
    return np.hstack([tok, np.eye(N)])


def test_qa_previous_token_head_copies_each_tokens_predecessor():
    X = residual_stream(SENTENCE)
    Q, K, V = ref.qkv_project(X, *previous_token_head(len(SENTENCE)))
    out, weights = ref.scaled_dot_product_attention(Q, K, V, mask=ref.causal_mask(len(SENTENCE)), scale=60.0)
    previous = [VOCAB[i] for i in out[1:].argmax(axis=1)]
    assert previous == SENTENCE[:-1]
    np.testing.assert_allclose(out[1:], V[:-1], atol=1e-12)
    np.testing.assert_allclose(weights[1:], np.eye(len(SENTENCE), k=-1)[1:], atol=1e-12)
    np.testing.assert_allclose(out[0], V[0], atol=1e-15)  # the first token can only see itself


def test_qa_previous_token_head_also_works_with_cached_decoding():
    X = residual_stream(SENTENCE)
    W_Q, W_K, W_V = previous_token_head(len(SENTENCE))
    scale_up = 60.0 * math.sqrt(W_K.shape[1])  # decode_step's scale is 1/sqrt(d_k)
    out = ref.generate_cached(ref.AttentionLayer(W_Q * scale_up, W_K, W_V), X)
    assert [VOCAB[i] for i in out[1:].argmax(axis=1)] == SENTENCE[:-1]
    np.testing.assert_allclose(out[1:], X[:-1, : len(VOCAB)], atol=1e-12)
