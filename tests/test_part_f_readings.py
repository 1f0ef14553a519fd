"""Part F readings that a twenty-fourth batch of real students' code asked for: a raise in decode_step's own code is
explained at the student's line like any other function's (the crash search, with the grader's layer and cache made
afresh for each probe), through what the line assumed of the layer's widths (d_v = d_k, or every projection as wide
as the token: one fused projection cut into three D-wide pieces); and "Check first" for generate_cached when its
decode_step fails, which needs a served stand-in to be given the grader's own layer (and a correct cache: a stand-in
cannot use the student's). Submissions are graded by the real engine."""

from __future__ import annotations

import pytest

from tests.homework import module as homework_module

DECODE_BODY = '''
    if rope_base is not None:
        position = np.array([len(cache)], dtype=float)
        q, k = rope(q[None, :], position, base=rope_base)[0], rope(k[None, :], position, base=rope_base)[0]
    cache.append(k, v)
    out, _ = scaled_dot_product_attention(q[None, :], cache.keys, cache.values)
    return out[0]
'''

FUSED = '''

def decode_step(layer, x, cache, rope_base=None):
    D = x.shape[-1]
    qkv = np.concatenate([layer.query(x), layer.key(x), layer.value(x)])  # one fused projection, (3 D,)
    q, k, v = qkv.reshape(3, D)
''' + DECODE_BODY

EQUAL_WIDTHS = '''

def decode_step(layer, x, cache, rope_base=None):
    q, k, v = layer.query(x), layer.key(x), layer.value(x)
    assert len(v) == len(q), "values as wide as queries"
''' + DECODE_BODY


def _graded(tmp_path_factory: pytest.TempPathFactory, source: str) -> dict[str, dict]:
    from autograder import runner
    from tests.homework import UPLOAD

    folder = tmp_path_factory.mktemp("graded")
    (folder / f"{UPLOAD}.py").write_text(f"{open(homework_module('attention').__file__).read()}\n{source}")
    return {t["number"]: t for t in runner.grade_folder(folder)["tests"] if t["score"] < t["max_score"]}


@pytest.fixture(scope="module")
def fused(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    return _graded(tmp_path_factory, FUSED)


def _of(tests: dict[str, dict], function: str) -> list[dict]:
    return [t for t in tests.values() if t["tags"] == [function]]


def test_a_fused_projection_cut_into_model_width_pieces_is_explained_at_the_students_line(fused) -> None:
    """`qkv.reshape(3, D)` raises unless 2 d_k + d_v = 3 D; the same call with a layer projecting to d_k = d_v = D
    gets past it, and with d_v = d_k at another width it does not (where the case's d_k is D already, d_v = d_k
    alone gets past, and widths of D + 1 tell the two apart): the line is quoted and the layer's width named, with
    the probe as its evidence."""
    decode = _of(fused, "decode_step")
    assert decode, sorted(fused)
    for test in decode:
        assert test["extra_data"]["mistakes"][:1] == ["layer_width_model"], (test["number"], test["output"])
        assert "Your line `q, k, v = qkv.reshape(3, D)`" in test["output"], test["output"]
        assert any(e.get("sentence") == "layer_width_model" and e.get("by", "").startswith("a probe")
                   for e in test["extra_data"]["evidence"]), test["extra_data"]["evidence"]


def test_generate_cached_is_told_to_check_its_failing_decode_step_first(fused) -> None:
    """The reference's generate_cached calls the student's decode_step: with a correct decode_step served (given the
    grader's layer, and a correct KVCache, which a stand-in can be given where the student's cannot), it gets the
    case right, so "Check first" cites decode_step, and names no mistake of generate_cached's own."""
    cached = _of(fused, "generate_cached")
    assert cached, sorted(fused)
    for test in cached:
        assert "**Check first:** your `decode_step` fails its own test" in test["output"], test["output"]
        assert "given a correct `KVCache` too" in test["output"], test["output"]
        assert any(e.get("sentence") == "check_first" and e.get("passed") for e in test["extra_data"]["evidence"])


def test_a_line_that_needs_equal_widths_is_not_said_to_need_the_model_width(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """An `assert len(v) == len(q)` gets past with d_v = d_k and with d_k = d_v = D too; the second makes d_v = d_k
    as well, so it is no second reading: d_v = d_k is named, the model width never."""
    decode = _of(_graded(tmp_path_factory, EQUAL_WIDTHS), "decode_step")
    named = [m for t in decode for m in t["extra_data"]["mistakes"]]
    assert "needs_equal_widths" in named, [(t["number"], t["output"]) for t in decode]
    assert "layer_width_model" not in named


LAST_ROW_CACHE = '''

class KVCache(KVCache):
    def append(self, k, v):  # a block of T rows adds only its last: right for one token at a time
        super().append(np.atleast_2d(k)[-1], np.atleast_2d(v)[-1])
'''

OVERWRITING_CACHE = '''

class KVCache(KVCache):
    def append(self, k, v):  # keeps the newest token only
        self._keys, self._values = [], []
        super().append(k, v)
'''


@pytest.mark.parametrize(("cache", "alike"), [(LAST_ROW_CACHE, True), (OVERWRITING_CACHE, False)],
                         ids=["last_row_of_a_block", "newest_token_only"])
def test_a_failing_cache_is_cited_beside_decode_step_only_where_it_answers_otherwise(
        tmp_path_factory: pytest.TempPathFactory, cache: str, alike: bool) -> None:
    """A stand-in for decode_step cannot use the student's cache, so the probe serves a correct one beside it; the
    student's own, which fails its own tests, is cited too only when, asked the same calls the probe made of the
    correct one, it answers otherwise: a cache that keeps a block's last row answers one token at a time as a correct
    one does (decode_step alone is cited), one that keeps only the newest token does not past the first token (both
    are cited there)."""
    tests = _graded(tmp_path_factory, FUSED + cache)
    assert _of(tests, "KVCache"), sorted(tests)  # the cache fails its own tests
    cached = _of(tests, "generate_cached")
    assert cached
    notes = [test["output"].split("\n\n", 1)[0] for test in cached]
    assert all("correct `decode_step`" in note or "correct `KVCache` and `decode_step`" in note for note in notes)
    assert any("correct `KVCache` and `decode_step`" in note for note in notes) is not alike, notes
    probes = [e for test in cached for e in test["extra_data"]["evidence"] if "own_classes_answer_alike" in e]
    assert probes and any(e["own_classes_answer_alike"] is False for e in probes) is not alike, probes


ROPE_FROM_ZERO = '''

def rope(x, positions, base=10000.0):
    return _reference_rope(x, np.arange(np.shape(x)[-2], dtype=float), base=base)  # positions never read
'''


def test_a_callee_cited_is_said_to_have_only_the_mistakes_its_own_tests_named(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """A rope that ignores positions rotates decode_step's one token at position 0, so decode_step's output is its
    answer without RoPE: its own tests say to check rope first. generate_cached's cases then pass with a correct
    decode_step standing in (it is cited), and the output it shares with "decode_step applies no RoPE" is not said:
    decode_step's own feedback never named that."""
    tests = _graded(tmp_path_factory, "_reference_rope = rope" + ROPE_FROM_ZERO)
    decode, cached = _of(tests, "decode_step"), _of(tests, "generate_cached")
    assert decode and cached, sorted(tests)
    assert all("**Check first:** your `rope`" in t["output"] for t in decode), [t["output"] for t in decode]
    assert any("your `decode_step` fails its own test" in t["output"] for t in cached), [t["output"] for t in cached]
    named = {m for t in [*decode, *cached] for m in t["extra_data"]["mistakes"]}
    assert "decode_rope_ignored" not in named, named
