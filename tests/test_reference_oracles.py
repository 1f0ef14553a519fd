"""reference/attention.py agrees with independent oracles to 1e-10 (absolute) or better.
from tests.homework import module as homework_module

ref = homework_module('attention')

Oracles: PyTorch (``F.scaled_dot_product_attention``, ``nn.MultiheadAttention``) in float64,
the Meta-Llama complex-number RoPE formula in complex128, and the loop-based
``tests/oracle_independent.py``, which implements every contract function from the
contract text.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests import oracle_independent as oracle
from tests.homework import module as homework_module

ref = homework_module("attention")

torch = pytest.importorskip("torch")
F = torch.nn.functional

pytestmark = pytest.mark.filterwarnings("error")

ATOL = 1e-10


def assert_close(actual, expected, atol=ATOL):
    """Same shape and |actual - expected| <= atol everywhere (NaN never passes)."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    np.testing.assert_allclose(actual, expected, rtol=0, atol=atol)


def tt(a):
    """numpy -> float64 torch tensor."""
    return torch.from_numpy(np.array(a, dtype=np.float64))


def random_mask(rng, shape):
    """Random boolean mask (True = may attend) whose first query row is fully masked."""
    mask = rng.random(shape) < 0.6
    mask[..., 0, :] = False
    return mask


def bottom_right_causal(n_q, n_k):
    """Causal mask built by hand: query i is the token at position i + n_k - n_q."""
    return np.arange(n_k)[None, :] <= np.arange(n_q)[:, None] + (n_k - n_q)


# ---- PyTorch F.scaled_dot_product_attention ---------------------------------------------------

# torch 2.13 (math backend, float64, CPU) returns ZERO output rows for fully masked query rows
# (older torch returned NaN); torch.softmax of an all -inf row is NaN in every version. The
# contract wants zero weights and zero output, so the helpers below accept either zeros or NaN
# from torch on exactly those rows, assert it is one of the two, and compare with zeros.
# (nn.MultiheadAttention in torch 2.13: zeros with need_weights=False, NaN with need_weights=True.)


def fully_masked_rows(mask, shape):
    """Bool array (..., N_q, 1): the rows of a (broadcast) mask with nothing allowed."""
    if mask is None:
        return np.zeros((*shape[:-1], 1), dtype=bool)
    return ~np.broadcast_to(mask, shape).any(axis=-1, keepdims=True)


def torch_sdpa(Q, K, V, mask, scale):
    """torch's output with fully masked rows checked to be zero or NaN, then set to 0."""
    with torch.no_grad():
        attn_mask = None if mask is None else torch.from_numpy(np.array(mask))
        out = F.scaled_dot_product_attention(tt(Q), tt(K), tt(V), attn_mask=attn_mask, scale=scale).numpy()
    dead = np.broadcast_to(fully_masked_rows(mask, (*out.shape[:-1], K.shape[-2])), out.shape)
    assert np.all(np.isnan(out[dead]) | (out[dead] == 0.0)), "torch: neither 0 nor NaN on a masked row"
    assert not np.isnan(out[~dead]).any()
    return np.where(dead, 0.0, out)


def torch_weights(Q, K, mask, scale):
    """softmax(scale * Q K^T, masked) computed by torch; its NaN rows (fully masked) -> 0."""
    scale = 1.0 / math.sqrt(Q.shape[-1]) if scale is None else scale
    scores = tt(Q) @ tt(K).transpose(-1, -2) * scale
    if mask is not None:
        scores = scores.masked_fill(~torch.from_numpy(np.array(mask)), -math.inf)
    w = torch.softmax(scores, dim=-1).numpy()
    dead = np.broadcast_to(fully_masked_rows(mask, w.shape), w.shape)
    assert np.isnan(w[dead]).all() and not np.isnan(w[~dead]).any()
    return np.where(dead, 0.0, w)


SDPA_SHAPES = [  # batch, n_q, n_k, d_k, d_v
    ((), 3, 3, 4, 2),
    ((2,), 4, 6, 3, 5),
    ((2, 3), 5, 2, 8, 3),  # n_k < n_q: the bottom-right causal mask has fully masked rows
    ((1, 3), 1, 7, 4, 4),  # one query over a cache of 7 keys
    ((2, 2), 6, 6, 16, 1),
]


def sdpa_inputs(seed, shape, mask_kind):
    batch, n_q, n_k, d_k, d_v = shape
    rng = np.random.default_rng(seed)
    Q = rng.normal(size=(*batch, n_q, d_k))
    K = rng.normal(size=(*batch, n_k, d_k))
    V = rng.normal(size=(*batch, n_k, d_v))
    mask = {
        "no_mask": None,
        "random_mask_with_a_fully_masked_row": random_mask(rng, (*batch, n_q, n_k)),
        "bottom_right_causal_mask": bottom_right_causal(n_q, n_k),
    }[mask_kind]
    return Q, K, V, mask


MASK_KINDS = ["no_mask", "random_mask_with_a_fully_masked_row", "bottom_right_causal_mask"]


@pytest.mark.parametrize("scale", [None, 0.37])
@pytest.mark.parametrize("mask_kind", MASK_KINDS)
@pytest.mark.parametrize("shape", SDPA_SHAPES, ids=str)
def test_sdpa_output_and_weights_match_torch(shape, mask_kind, scale):
    Q, K, V, mask = sdpa_inputs(1, shape, mask_kind)
    out, weights = ref.scaled_dot_product_attention(Q, K, V, mask=mask, scale=scale)
    assert_close(out, torch_sdpa(Q, K, V, mask, scale))
    assert_close(weights, torch_weights(Q, K, mask, scale))


def test_torch_2_13_gives_zero_output_rows_for_fully_masked_queries():
    """Documents the torch behaviour the helpers rely on (zeros, not NaN, since torch 2.5)."""
    rng = np.random.default_rng(2)
    Q, K, V = rng.normal(size=(2, 3, 4)), rng.normal(size=(2, 5, 4)), rng.normal(size=(2, 5, 3))
    mask = np.ones((3, 5), dtype=bool)
    mask[1] = False
    with torch.no_grad():
        out = F.scaled_dot_product_attention(tt(Q), tt(K), tt(V), attn_mask=torch.from_numpy(mask)).numpy()
    assert (out[:, 1] == 0.0).all()
    ref_out, ref_w = ref.scaled_dot_product_attention(Q, K, V, mask=mask)
    assert (ref_out[:, 1] == 0.0).all() and (ref_w[:, 1] == 0.0).all()


# ---- PyTorch nn.MultiheadAttention ------------------------------------------------------------


def torch_mha(X, W_Q, W_K, W_V, W_O, num_heads, mask, need_weights=False):
    """nn.MultiheadAttention(bias=False, batch_first=True) with our weights copied in."""
    E = X.shape[-1]
    mha = torch.nn.MultiheadAttention(E, num_heads, bias=False, batch_first=True, dtype=torch.float64)
    mha.eval()
    with torch.no_grad():
        mha.in_proj_weight.copy_(tt(np.concatenate([W_Q.T, W_K.T, W_V.T])))  # rows = W^T
        mha.out_proj.weight.copy_(tt(W_O.T))
        attn_mask = None if mask is None else torch.from_numpy(~mask)  # torch: True = NOT allowed
        x = tt(X)
        out, w = mha(x, x, x, attn_mask=attn_mask, need_weights=need_weights, average_attn_weights=False)
    return out.numpy(), (None if w is None else w.numpy())


def mha_inputs(seed, E, N, batched, mask_kind):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(3, N, E) if batched else (N, E))
    W_Q, W_K, W_V, W_O = (rng.normal(size=(E, E)) / math.sqrt(E) for _ in range(4))
    mask = None
    if mask_kind == "causal_mask":
        mask = np.tril(np.ones((N, N), dtype=bool))
    elif mask_kind == "random_mask":
        mask = (rng.random((N, N)) < 0.5) | np.eye(N, dtype=bool)  # every query sees itself
    return X, W_Q, W_K, W_V, W_O, mask


@pytest.mark.parametrize("batched", [True, False], ids=["batched", "unbatched"])
@pytest.mark.parametrize("mask_kind", ["no_mask", "causal_mask", "random_mask"])
@pytest.mark.parametrize("num_heads", [1, 2, 3, 4, 6, 12])
def test_multi_head_attention_matches_torch_multihead_attention(num_heads, mask_kind, batched):
    X, W_Q, W_K, W_V, W_O, mask = mha_inputs(num_heads, 12, 5, batched, mask_kind)
    expected, _ = torch_mha(X, W_Q, W_K, W_V, W_O, num_heads, mask)
    assert_close(ref.multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=mask), expected)


@pytest.mark.parametrize("need_weights", [False, True])
def test_multi_head_attention_fully_masked_rows_are_zero(need_weights):
    """torch 2.13 MHA: zeros with need_weights=False (SDPA path) but NaN with need_weights=True
    (explicit softmax path); the contract says zeros, so NaN rows are compared as zeros."""
    X, W_Q, W_K, W_V, W_O, _ = mha_inputs(40, 12, 5, True, "no_mask")
    mask = np.tril(np.ones((5, 5), dtype=bool))
    mask[[0, 3]] = False
    expected, _ = torch_mha(X, W_Q, W_K, W_V, W_O, 3, mask, need_weights=need_weights)
    dead = expected[:, [0, 3]]
    assert (np.isnan(dead) if need_weights else dead == 0.0).all()
    got = ref.multi_head_attention(X, W_Q, W_K, W_V, W_O, 3, mask=mask)
    assert (got[:, [0, 3]] == 0.0).all()
    assert_close(got, np.nan_to_num(expected, nan=0.0))


@pytest.mark.parametrize("num_heads", [2, 3, 4])
def test_each_head_uses_its_own_column_block_like_torch(num_heads):
    X, W_Q, W_K, W_V, W_O, mask = mha_inputs(7, 12, 6, True, "causal_mask")
    _, torch_w = torch_mha(X, W_Q, W_K, W_V, W_O, num_heads, mask, need_weights=True)  # (B, H, N, N)
    d = 12 // num_heads
    for h in range(num_heads):
        cols = slice(h * d, (h + 1) * d)
        Q, K, V = ref.qkv_project(X, W_Q[:, cols], W_K[:, cols], W_V[:, cols])
        assert_close(ref.scaled_dot_product_attention(Q, K, V, mask=mask)[1], torch_w[:, h])


# ---- the Meta-Llama complex-number RoPE --------------------------------------------------------


def meta_llama_rope(x, positions, base):
    """Meta's precompute_freqs_cis + apply_rotary_emb, in complex128."""
    d = x.shape[-1]
    freqs = 1.0 / (base ** (torch.arange(0, d, 2, dtype=torch.float64)[: d // 2] / d))
    angles = torch.outer(tt(positions), freqs)  # (N, d/2)
    freqs_cis = torch.polar(torch.ones_like(angles), angles)  # exp(i * pos * freq)
    x_complex = torch.view_as_complex(tt(x).reshape(*x.shape[:-1], -1, 2))  # x[2i] + i x[2i+1]
    return torch.view_as_real(x_complex * freqs_cis).flatten(-2).numpy()


ROPE_SHAPES = [((), 5, 2), ((2,), 6, 8), ((2, 3), 4, 16), ((3,), 7, 64)]  # batch, N, d
POSITION_KINDS = ["integer_positions", "real_positions", "large_real_positions"]


def rope_inputs(seed, shape, positions_kind):
    batch, N, d = shape
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(*batch, N, d))
    positions = {
        "integer_positions": np.arange(N, dtype=float),
        "real_positions": rng.uniform(-20.0, 50.0, size=N),
        "large_real_positions": 1000.0 + rng.uniform(0.0, 10.0, size=N),
    }[positions_kind]
    return x, positions


@pytest.mark.parametrize("base", [10000.0, 500000.0, 10.0])
@pytest.mark.parametrize("positions_kind", POSITION_KINDS)
@pytest.mark.parametrize("shape", ROPE_SHAPES, ids=str)
def test_rope_matches_meta_llama_complex_formula(shape, positions_kind, base):
    x, positions = rope_inputs(3, shape, positions_kind)
    assert_close(ref.rope(x, positions, base=base), meta_llama_rope(x, positions, base))


# ---- the loop-based independent oracle, every function -----------------------------------------


@pytest.mark.parametrize("lead", [(), (3,), (2, 2)], ids=str)
def test_qkv_project_matches_oracle(lead):
    rng = np.random.default_rng(4)
    X = rng.normal(size=(*lead, 5, 6))
    Ws = rng.normal(size=(6, 3)), rng.normal(size=(6, 3)), rng.normal(size=(6, 4))
    for got, want in zip(ref.qkv_project(X, *Ws), oracle.qkv_project(X, *Ws)):
        assert_close(got, want)


@pytest.mark.parametrize("shape", SDPA_SHAPES, ids=str)
def test_attention_scores_match_oracle(shape):
    Q, K, _, _ = sdpa_inputs(5, shape, "no_mask")
    assert_close(ref.attention_scores(Q, K), oracle.attention_scores(Q, K))


@pytest.mark.parametrize("temperature", [1.0, 0.25, 7.0])
@pytest.mark.parametrize("axis", [-1, 0, 1, 2])
def test_softmax_matches_oracle_with_large_logits_and_minus_inf(axis, temperature):
    rng = np.random.default_rng(6)
    Z = rng.normal(scale=300.0, size=(3, 4, 5))
    Z[rng.random(Z.shape) < 0.3] = -np.inf
    Z[0, 0, :] = -np.inf  # one slice of each axis orientation is fully -inf
    Z[1, :, 2] = -np.inf
    Z[:, 3, 4] = -np.inf
    assert_close(ref.softmax(Z, axis=axis, temperature=temperature), oracle.softmax(Z, axis, temperature))


@pytest.mark.parametrize("n_q, n_k", [(1, 1), (4, 4), (3, 6), (6, 3), (1, 5), (5, 1), (5, None)])
def test_causal_mask_matches_oracle(n_q, n_k):
    got = ref.causal_mask(n_q) if n_k is None else ref.causal_mask(n_q, n_k)
    assert got.dtype == bool
    np.testing.assert_array_equal(got, oracle.causal_mask(n_q, n_k))


@pytest.mark.parametrize("scale", [None, 2.5])
@pytest.mark.parametrize("mask_kind", MASK_KINDS)
@pytest.mark.parametrize("shape", SDPA_SHAPES, ids=str)
def test_sdpa_matches_oracle(shape, mask_kind, scale):
    Q, K, V, mask = sdpa_inputs(8, shape, mask_kind)
    got = ref.scaled_dot_product_attention(Q, K, V, mask=mask, scale=scale)
    want = oracle.scaled_dot_product_attention(Q, K, V, mask=mask, scale=scale)
    assert_close(got[0], want[0])
    assert_close(got[1], want[1])


@pytest.mark.parametrize(
    "lead, N, D, H, d_k, d_v, D_out",
    [((), 4, 6, 2, 3, 5, 7), ((2,), 5, 8, 4, 2, 2, 3), ((2, 3), 3, 4, 1, 5, 2, 4)],
)
@pytest.mark.parametrize("mask_kind", ["no_mask", "causal_mask", "per_batch_random_mask"])
def test_multi_head_attention_matches_oracle(lead, N, D, H, d_k, d_v, D_out, mask_kind):
    rng = np.random.default_rng(9)
    X = rng.normal(size=(*lead, N, D))
    W_Q, W_K = rng.normal(size=(D, H * d_k)), rng.normal(size=(D, H * d_k))
    W_V, W_O = rng.normal(size=(D, H * d_v)), rng.normal(size=(H * d_v, D_out))
    mask = {
        "no_mask": None,
        "causal_mask": oracle.causal_mask(N),
        "per_batch_random_mask": random_mask(rng, (*lead, N, N)),
    }[mask_kind]
    got = ref.multi_head_attention(X, W_Q, W_K, W_V, W_O, H, mask=mask)
    assert_close(got, oracle.multi_head_attention(X, W_Q, W_K, W_V, W_O, H, mask=mask))


@pytest.mark.parametrize(
    "mask", [np.array([True, True, False, True]), np.bool_(True)], ids=["key_padding_n", "scalar"]
)
def test_multi_head_attention_accepts_masks_of_fewer_than_two_axes(mask):
    """A (N,) or scalar mask is broadcastable to (..., N, N), so every head must accept it."""
    rng = np.random.default_rng(10)
    X, W = rng.normal(size=(2, 4, 6)), [rng.normal(size=(6, 6)) for _ in range(4)]
    got = ref.multi_head_attention(X, *W, num_heads=2, mask=mask)
    assert_close(got, oracle.multi_head_attention(X, *W, num_heads=2, mask=mask))


@pytest.mark.parametrize("angle", [0.0, 0.3, -1.2, math.pi / 2, 3 * math.pi, 123.456])
def test_rotation_matrix_matches_oracle(angle):
    assert_close(ref.rotation_matrix(angle), oracle.rotation_matrix(angle))


@pytest.mark.parametrize("base", [10000.0, 10.0])
@pytest.mark.parametrize("positions_kind", POSITION_KINDS)
@pytest.mark.parametrize("shape", ROPE_SHAPES, ids=str)
def test_rope_matches_oracle(shape, positions_kind, base):
    x, positions = rope_inputs(11, shape, positions_kind)
    assert_close(ref.rope(x, positions, base=base), oracle.rope(x, positions, base=base))


def test_kv_cache_matches_oracle_after_single_and_block_appends():
    rng = np.random.default_rng(12)
    ours, theirs = ref.KVCache(), oracle.KVCache()
    assert len(ours) == len(theirs) == 0
    for T in [None, 3, 1, None, 2]:  # None: one (d,) row; T: a (T, d) block
        size = (3,) if T is None else (T, 3)
        k, v = rng.normal(size=size), rng.normal(size=(*size[:-1], 5))
        ours.append(k, v)
        theirs.append(k, v)
        assert len(ours) == len(theirs)
        assert_close(ours.keys, theirs.keys)
        assert_close(ours.values, theirs.values)
    assert len(ours) == 8


def layer_and_tokens(seed, N, D=6, d_k=4, d_v=3):
    rng = np.random.default_rng(seed)
    weights = rng.normal(size=(D, d_k)), rng.normal(size=(D, d_k)), rng.normal(size=(D, d_v))
    return weights, rng.normal(size=(N, D))


ROPE_BASES = [None, 10000.0, 10.0]


@pytest.mark.parametrize("prompt", [0, 3], ids=["empty_cache", "cache_prefilled_with_3_tokens"])
@pytest.mark.parametrize("rope_base", ROPE_BASES)
def test_decode_step_matches_oracle_with_either_cache(rope_base, prompt):
    """A prefilled cache pins absolute positions: a shifted RoPE position cannot cancel out."""
    weights, X = layer_and_tokens(13, 6)
    rng = np.random.default_rng(30)
    caches = [ref.KVCache(), oracle.KVCache(), ref.KVCache()]
    if prompt:
        k0, v0 = rng.normal(size=(prompt, 4)), rng.normal(size=(prompt, 3))
        for cache in caches:
            cache.append(k0, v0)
    for x in X:
        layers = [ref.AttentionLayer(*weights) for _ in range(3)]
        a = ref.decode_step(layers[0], x, caches[0], rope_base=rope_base)
        b = ref.decode_step(layers[1], x, caches[1], rope_base=rope_base)
        c = oracle.decode_step(layers[2], x, caches[2], rope_base=rope_base)
        assert_close(a, c)
        assert_close(b, c)
        assert layers[0].calls == layers[2].calls == {"query": 1, "key": 1, "value": 1}
    assert len(caches[0]) == len(caches[1]) == len(caches[2]) == prompt + len(X)
    for cache in caches[:2]:
        assert_close(cache.keys, caches[2].keys)
        assert_close(cache.values, caches[2].values)


@pytest.mark.parametrize("rope_base", ROPE_BASES)
@pytest.mark.parametrize("N", [1, 2, 5, 8])
def test_generate_cached_matches_oracle_with_n_projection_calls(N, rope_base):
    weights, X = layer_and_tokens(14 + N, N)
    ours, theirs = ref.AttentionLayer(*weights), ref.AttentionLayer(*weights)
    assert_close(ref.generate_cached(ours, X, rope_base), oracle.generate_cached(theirs, X, rope_base))
    assert ours.calls == theirs.calls == {"query": N, "key": N, "value": N}


@pytest.mark.parametrize("rope_base", ROPE_BASES)
@pytest.mark.parametrize("N", [1, 2, 5, 8])
def test_generate_naive_matches_oracle_with_quadratic_key_value_calls(N, rope_base):
    weights, X = layer_and_tokens(24 + N, N)
    ours, theirs = ref.AttentionLayer(*weights), ref.AttentionLayer(*weights)
    assert_close(ref.generate_naive(ours, X, rope_base), oracle.generate_naive(theirs, X, rope_base))
    triangle = N * (N + 1) // 2
    assert ours.calls == theirs.calls == {"query": N, "key": triangle, "value": triangle}
