"""The stored-case format round-trips, is deterministic, needs no pickle; the stored cases are fresh."""

from __future__ import annotations

import ast
import hashlib
import json
import math
import zipfile
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pytest

from autograder import contract
from autograder.feedback import compare
from autograder.suite import regen
from autograder.suite.cases import (
    Case,
    CaseFormatError,
    call_arguments,
    dumps_cases,
    dumps_manifest,
    load_cases,
    loads_cases,
    read_array,
    save_cases,
    write_manifest,
)
from tests.homework import HOMEWORK
from tests.homework import module as homework_module

public_cases = homework_module('cases.public')

REPO = Path(__file__).resolve().parent.parent
PUBLIC = REPO / "student_template" / "public_cases.npz"


def sample_cases() -> list[Case]:
    rng = np.random.default_rng(0)
    Z = rng.standard_normal((2, 3))
    Z[1] = -np.inf
    return [
        Case(
            "softmax-sample",
            "softmax",
            {"Z": Z, "axis": -1, "temperature": 0.5},
            np.array([[0.2, 0.8, 0.0], [0.0, 0.0, 0.0]]),
            {"softmax_nan_fully_masked": np.array([[0.2, 0.8, 0.0], [np.nan] * 3])},
            seed=7,
            description="arrays, ints, floats",
        ),
        Case(
            "sdpa-tuple",
            "scaled_dot_product_attention",
            {"Q": rng.standard_normal((2, 1, 2)), "K": np.zeros((2, 3, 2)), "V": np.ones((2, 3, 1)),
             "mask": np.array([[True, False, True]]), "scale": None},
            (np.zeros((2, 1, 1)), np.full((2, 1, 3), 1 / 3)),
            {"outputs_swapped": (np.full((2, 1, 3), 1 / 3), np.zeros((2, 1, 1)))},
        ),
        Case(
            "scalars",
            "rotation_matrix",
            {"angle": -math.inf, "flag": True, "name": "x", "nothing": None, "count": 3, "zero_d": np.array(2.5)},
            (math.nan, math.inf, -0.0, 1, False, None, "text"),
        ),
        Case(
            "decode-dict",
            "decode_step",
            {"layer.W_Q": np.eye(2), "layer.W_K": np.eye(2), "layer.W_V": np.eye(2), "x": np.ones(2),
             "cache.keys": np.zeros((0, 2)), "cache.values": np.zeros((0, 2)), "rope_base": 100.0},
            {"out": np.ones(2), "cache.keys": np.ones((1, 2)), "calls.query": 1, "lengths": np.array([1, 3])},
            {"decode_no_scale": {"out": np.full(2, 2.0), "cache.keys": np.ones((1, 2)), "calls.query": 2,
                                 "lengths": np.array([1, 3])}},
        ),
        Case("kv-tuples", "KVCache", {"k": (np.ones(2), np.ones((3, 2))), "v": (np.ones(4), np.ones((3, 4)))},
             {"keys": np.ones((4, 2)), "values": np.ones((4, 4)), "lengths": np.array([1, 4])}),
    ]


def assert_same(a: Any, b: Any) -> None:
    """Exactly equal, with the same Python types (int stays int, bool stays bool) and dtypes."""
    assert type(a) is type(b), (a, b)
    if isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape
        assert np.array_equal(a, b, equal_nan=a.dtype.kind == "f")
    elif isinstance(a, tuple):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            assert_same(x, y)
    elif isinstance(a, dict):
        assert list(a) == list(b)
        for key in a:
            assert_same(a[key], b[key])
    elif isinstance(a, float) and math.isnan(a):
        assert math.isnan(b)
    else:
        assert a == b and (not isinstance(a, float) or math.copysign(1, a) == math.copysign(1, b))


# ----------------------------------------------------------------------------
# The format
# ----------------------------------------------------------------------------


def test_cases_round_trip_exactly(tmp_path):
    cases = sample_cases()
    save_cases(tmp_path / "c.npz", cases)
    loaded = load_cases(tmp_path / "c.npz")
    assert list(loaded) == [c.id for c in cases]
    for case in cases:
        got = loaded[case.id]
        assert (got.function, got.seed, got.description) == (case.function, case.seed, case.description)
        assert list(got.inputs) == list(case.inputs), "input order is call order"
        for part in ("inputs", "expected", "mistakes"):
            assert_same(getattr(case, part), getattr(got, part))


def test_the_same_cases_give_the_same_bytes(tmp_path):
    first = save_cases(tmp_path / "a.npz", sample_cases())
    assert dumps_cases(sample_cases()) == first == (tmp_path / "a.npz").read_bytes()
    with zipfile.ZipFile(tmp_path / "a.npz") as zf:
        infos = zf.infolist()
    assert [i.filename for i in infos] == sorted(i.filename for i in infos)
    assert {i.date_time for i in infos} == {(1980, 1, 1, 0, 0, 0)}
    assert {i.compress_type for i in infos} == {zipfile.ZIP_STORED}


def test_numpy_reads_every_entry_without_pickle(tmp_path):
    save_cases(tmp_path / "c.npz", sample_cases())
    with np.load(tmp_path / "c.npz", allow_pickle=False) as npz:
        arrays = [npz[name] for name in npz.files if name != "index.json"]
        index = json.loads(npz["index.json"])
    assert len(arrays) > 20 and all(isinstance(a, np.ndarray) for a in arrays)
    assert "softmax-sample/input/Z" in npz.files and "sdpa-tuple/mistake/outputs_swapped/1" in npz.files
    assert [c["id"] for c in index["cases"]] == [c.id for c in sample_cases()]


def test_the_fast_reader_gives_every_stored_array_as_numpy_reads_it():
    """load_cases reads arrays with the protocol's npy reader (a matched header: the suite's ~2,000 arrays in a
    fraction of numpy's time); every stored array is what np.load gives, dtype, shape, values and NaNs alike."""
    path = HOMEWORK.cases_file
    with zipfile.ZipFile(path) as zf, np.load(path, allow_pickle=False) as npz:
        names = [n for n in zf.namelist() if n.endswith(".npy")]
        assert len(names) > 50
        for name in names:
            got, want = read_array(zf.read(name)), npz[name[: -len(".npy")]]
            assert got.dtype == want.dtype and got.shape == want.shape and not got.flags.writeable, name
            assert np.array_equal(got, want, equal_nan=want.dtype.kind == "f"), name


def test_a_compressed_copy_of_a_case_file_loads_the_same(tmp_path):
    """load_cases slices stored (uncompressed) entries straight out of the file, CRC-checked; any other entry
    (a case file recompressed by some tool) is read by zipfile: the same cases either way."""
    save_cases(tmp_path / "c.npz", sample_cases())
    with zipfile.ZipFile(tmp_path / "c.npz") as src, zipfile.ZipFile(tmp_path / "z.npz", "w") as dst:
        for info in src.infolist():
            dst.writestr(info.filename, src.read(info), compress_type=zipfile.ZIP_DEFLATED)
    plain, packed = load_cases(tmp_path / "c.npz"), load_cases(tmp_path / "z.npz")
    assert list(plain) == list(packed)
    for case_id, case in plain.items():
        for part in ("inputs", "expected", "mistakes"):
            assert_same(getattr(case, part), getattr(packed[case_id], part))


def test_loaded_arrays_are_read_only():
    case = loads_cases(dumps_cases(sample_cases()))["softmax-sample"]
    with pytest.raises(ValueError, match="read-only"):
        case.inputs["Z"][0, 0] = 1.0


@pytest.mark.parametrize(
    ("case", "message"),
    [
        (Case("a/b", "f", {}, 1), "bad case id"),
        (Case("ok", "f", {"x y": 1}, 1), "bad input name"),
        (Case("ok", "f", {"x": [1, 2]}, 1), "cannot store a value of type list"),
        (Case("ok", "f", {"x": np.array([object()])}, 1), "must be bool, int or float"),
        (Case("ok", "f", {}, np.array([1 + 2j])), "must be bool, int or float"),
        (Case("ok", "f", {}, {"bad key": 1}), "bad key"),
    ],
)
def test_values_that_cannot_be_stored_are_refused(case, message):
    with pytest.raises(CaseFormatError, match=message):
        dumps_cases([case])


def test_duplicate_ids_are_refused():
    with pytest.raises(CaseFormatError, match="duplicate"):
        dumps_cases([Case("same", "f", {}, 1), Case("same", "g", {}, 2)])


def test_manifest_records_numpy_the_sha256_and_every_case(tmp_path):
    cases = sample_cases()
    data = save_cases(tmp_path / "c.npz", cases)
    written = write_manifest(tmp_path / "manifest.json", cases, tmp_path / "c.npz")
    assert written == dumps_manifest(cases, data, npz_name="c.npz")
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["sha256"] == hashlib.sha256(data).hexdigest()
    assert manifest["numpy"] == np.__version__ and manifest["npz"] == "c.npz"
    first = manifest["cases"][0]
    assert first["seed"] == 7 and first["inputs"]["Z"] == {"shape": [2, 3], "dtype": "float64"}
    assert first["mistakes"] == ["softmax_nan_fully_masked"]


def test_dotted_inputs_become_one_argument_where_the_first_part_is():
    inputs = {"layer.W_Q": 1, "layer.W_K": 2, "layer.W_V": 3, "x": 4, "cache.keys": 5, "cache.values": 6, "b": 7}
    assert call_arguments(inputs) == [
        ("layer", {"W_Q": 1, "W_K": 2, "W_V": 3}),
        ("x", 4),
        ("cache", {"keys": 5, "values": 6}),
        ("b", 7),
    ]


def test_the_students_loader_reads_what_cases_py_writes(tmp_path):
    """test_attention.py cannot import the autograder: its own small loader must agree."""
    save_cases(tmp_path / "c.npz", sample_cases())
    source = (REPO / "student_template" / "test_attention.py").read_text()
    nodes = [n for n in ast.parse(source).body if getattr(n, "name", "") in {"Case", "load_cases"}]
    namespace = {"np": np, "json": json, "zipfile": zipfile, "Any": Any, "NamedTuple": NamedTuple, "Path": Path}
    exec(compile(ast.Module(body=nodes, type_ignores=[]), "test_attention.py", "exec"), namespace)
    theirs = namespace["load_cases"](tmp_path / "c.npz")
    ours = load_cases(tmp_path / "c.npz")
    assert list(theirs) == list(ours)
    for case_id, case in ours.items():
        for part in ("function", "inputs", "expected", "mistakes", "description"):
            assert_same(getattr(case, part), getattr(theirs[case_id], part))


# ----------------------------------------------------------------------------
# The stored public cases
# ----------------------------------------------------------------------------


def test_regen_check_passes_on_the_committed_tree(capsys):
    assert regen.main(["--check"]) == 0, capsys.readouterr().out


def test_regen_check_fails_when_a_stored_file_is_stale(tmp_path, monkeypatch, capsys):
    stale = tmp_path / "student_template" / "public_cases.npz"
    stale.parent.mkdir()
    stale.write_bytes(b"stale")
    public = next(s for s in regen.case_sets() if s.name == "public")
    monkeypatch.setattr(regen, "case_sets", lambda: [regen.CaseSet("public", str(stale), public.builder)])
    assert regen.main(["--check", "--only", "public"]) == 1
    assert "student_template/public_cases.npz" in capsys.readouterr().out
    assert stale.read_bytes() == b"stale"


def test_building_the_public_cases_twice_gives_the_same_bytes():
    public = next(s for s in regen.case_sets() if s.name == "public")
    assert regen.render(public) == regen.render(public)


@pytest.fixture(scope="module")
def public() -> dict[str, Case]:
    return load_cases(PUBLIC)


def test_every_contract_function_has_a_public_case(public):
    for function in contract.FUNCTIONS:
        assert any(c.function == function for c in public.values()), function


def test_public_cases_cover_the_tricky_inputs(public):
    def of(function):
        return [c for c in public.values() if c.function == function]

    sdpa, softmax = of("scaled_dot_product_attention"), of("softmax")
    assert any(c.inputs["Q"].ndim > 2 for c in sdpa), "batch/head axes"
    assert any(c.inputs["Q"].shape[-2] != c.inputs["K"].shape[-2] for c in sdpa), "n_q != n_k"
    assert any(c.inputs.get("mask") is not None and (~c.inputs["mask"]).all(axis=-1).any() for c in sdpa)
    assert any(np.abs(c.inputs["Z"][np.isfinite(c.inputs["Z"])]).max() > 500 for c in softmax), "large logits"
    assert any(c.inputs["temperature"] != 1.0 for c in softmax)
    assert any(np.isneginf(c.inputs["Z"]).all(axis=-1).any() for c in softmax), "an all -inf row"
    assert any(c.inputs.get("n_k", c.inputs["n_q"]) != c.inputs["n_q"] for c in of("causal_mask"))
    assert any(not np.all(c.inputs["positions"] == np.round(c.inputs["positions"])) for c in of("rope"))
    for function in ("decode_step", "generate_cached", "generate_naive"):
        assert any(c.inputs.get("rope_base") is not None for c in of(function)), f"{function} with RoPE"


def test_public_cases_hold_only_known_mistakes_that_differ_from_the_expected_output(public):
    stored = 0
    for case in public.values():
        for mistake_id, output in case.mistakes.items():
            assert mistake_id in compare.MISTAKES
            assert not regen.same_output(output, case.expected), (case.id, mistake_id)
            stored += 1
    assert stored > 100


def test_public_cases_use_no_worksheet_numbers(public):
    worksheet = [
        np.array([[2, 3], [-1, 0], [1, -2]]),  # Dis 10 Q1
        np.array([[1, 0, 2], [0, 1, -3]]),
        np.array([[0, 0, -1], [-2, 0, 1]]),
        np.array([[8, 0], [0, 9]]),
        np.array([[1, -1, 0, 2], [0, -1, 2, 1], [-2, 2, -1, 0]]),  # PS4 Q3
        np.array([[0, 1], [1, 0], [-1, 0], [1, 1]]),
        np.full((4, 4), 2.0),  # Dis 11 Q2, matrix A
        np.where(np.eye(4, dtype=bool), 10.0, 1.0),  # matrix B
    ]
    for case in public.values():
        for name, value in case.inputs.items():
            for array in value if isinstance(value, tuple) else (value,):
                if isinstance(array, np.ndarray) and array.dtype.kind == "f":
                    for w in worksheet:
                        assert not (array.shape == w.shape and np.allclose(array, w)), (case.id, name)


def test_public_case_seeds_are_distinct_and_recorded(public):
    seeds = [c.seed for c in public.values()]
    assert len(set(seeds)) == len(seeds) == len(public_cases.SPECS)
    assert all(c.description for c in public.values())
