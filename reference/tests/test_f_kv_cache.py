"""Part F: KV caching (Dis 11 Q3). Points: autograder/contract.py (POINTS).

decode_step gets the grader's correct cache (a bug in the student's KVCache cannot fail
it) and every projection goes through the grader's layer, which counts the calls:
decode_step makes one of each, generate_cached N, generate_naive N queries and
N(N+1)/2 keys and values.
"""

from __future__ import annotations

from autograder.api import check, graded

# ---- KVCache --------------------------------------------------------------------------------------------


@graded("F.1", "KVCache")
def test_kv_tokens(student):
    """KVCache: one token per append; keys and values oldest first, len counts tokens"""
    check(student, "kv-tokens")


@graded("F.2", "KVCache")
def test_kv_blocks(student):
    """KVCache: appending a block of T tokens adds T rows"""
    check(student, "kv-blocks")


@graded("F.3", "KVCache", hidden=True)
def test_kv_earlier_rows_survive(student):
    """KVCache: earlier rows survive every later append (blocks of 1 and 2, widths 5, 3 and 1)"""
    check(student, "kv-mixed", "kv-pairs")


# ---- decode_step ----------------------------------------------------------------------------------------


@graded("F.4", "decode_step")
def test_decode_one_projection_each(student):
    """decode_step: attends over the cache and itself, with one query, key and value projection"""
    check(student, "decode-three-cached", "decode-empty")


@graded("F.5", "decode_step")
def test_decode_rope(student):
    """decode_step: RoPE rotates q and k at position len(cache)"""
    check(student, "decode-rope")


@graded("F.6", "decode_step", hidden=True)
def test_decode_rope_positions(student):
    """decode_step: RoPE at positions 0 (base 100) and 9 (base 10000)"""
    check(student, "decode-rope-first", "decode-rope-long")


@graded("F.7", "decode_step", hidden=True)
def test_decode_dis10(student):
    """decode_step: Dis 10 Q1 token 3 over the cached tokens 1 and 2"""
    check(student, "decode-dis10")


# ---- generate_cached ------------------------------------------------------------------------------------


@graded("F.8", "generate_cached")
def test_cached_six_tokens(student):
    """generate_cached: 6 tokens with exactly 6 query, key and value projections"""
    check(student, "cached-six")


@graded("F.9", "generate_cached", hidden=True)
def test_cached_dis11_counts(student):
    """generate_cached: Dis 11 Q3 counts (N = 1 and 7) on the Q&A previous-token head"""
    check(student, "cached-one", "cached-previous-token")


@graded("F.10", "generate_cached", hidden=True)
def test_cached_rope(student):
    """generate_cached: RoPE base 10000 over 8 tokens"""
    check(student, "cached-rope")


# ---- generate_naive -------------------------------------------------------------------------------------


@graded("F.11", "generate_naive")
def test_naive_six_tokens(student):
    """generate_naive: 6 tokens with N(N+1)/2 = 21 key and value projections"""
    check(student, "naive-six")


@graded("F.12", "generate_naive")
def test_naive_rope(student):
    """generate_naive: RoPE at positions 0..n at every step n"""
    check(student, "naive-rope")


@graded("F.13", "generate_naive", hidden=True)
def test_naive_dis11_counts(student):
    """generate_naive: Dis 11 Q3 projection counts for N = 1, 2 and 7"""
    check(student, "naive-one", "naive-two", "naive-seven")


@graded("F.14", "generate_naive", hidden=True)
def test_naive_rope_long(student):
    """generate_naive: RoPE base 10000 over 8 tokens"""
    check(student, "naive-rope-long")


# ---- random shapes (cases drawn by autograder/suite/random_cases.py) -------------------------------------


@graded("F.15", "KVCache", hidden=True)
def test_kv_random_shapes(student):
    """KVCache: random appends of single tokens and blocks (d_k ≠ d_v from 1 to 16)"""
    check(student, "random-kv-1", "random-kv-2", "random-kv-3",
          "random-kv-4", "random-kv-5", "random-kv-6", shapes=True)


@graded("F.16", "decode_step", hidden=True)
def test_decode_random_shapes(student):
    """decode_step: random caches of 0 to 10 earlier tokens, D, d_k ≠ d_v, with and without RoPE"""
    check(student, "random-decode-1", "random-decode-2", "random-decode-3",
          "random-decode-4", "random-decode-5", "random-decode-6", shapes=True)


@graded("F.17", "generate_cached", hidden=True)
def test_cached_random_shapes(student):
    """generate_cached: random N from 1 to 12, D, d_k ≠ d_v, with and without RoPE"""
    check(student, "random-cached-1", "random-cached-2", "random-cached-3",
          "random-cached-4", "random-cached-5", "random-cached-6", shapes=True)


@graded("F.18", "generate_naive", hidden=True)
def test_naive_random_shapes(student):
    """generate_naive: random N from 2 to 10, D, d_k ≠ d_v, with and without RoPE"""
    check(student, "random-naive-1", "random-naive-2", "random-naive-3",
          "random-naive-4", "random-naive-5", "random-naive-6", shapes=True)
