"""`regen --check` is exact on structure, tolerant of float rounding in inputs and outputs (another CPU)."""

from __future__ import annotations

import copy
import io
import json
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from autograder.suite import regen, stored
from autograder.suite.cases import Case, dumps_cases, dumps_manifest, loads_cases

REPO = Path(__file__).resolve().parent.parent
PUBLIC = next(s for s in regen.case_sets() if s.name == "public")
GRADED = next(s for s in regen.case_sets() if s.name == "graded")


def base_cases() -> list[Case]:
    rng = np.random.default_rng(3)
    return [
        Case("sm", "softmax", {"Z": rng.standard_normal((2, 3)), "axis": -1},
             np.array([[0.25, 0.5, 0.25], [np.nan, np.inf, 0.0]]), {"wrong_axis": rng.standard_normal((2, 3)) * 50},
             seed=1, description="d"),
        Case("tup", "scaled_dot_product_attention", {"Q": np.ones((1, 2))},
             (np.full((1, 2), 1 / 3), 0.7, np.array([True, False]), np.arange(3))),
        Case("dec", "decode_step", {"x": np.ones(2)}, {"out": np.ones(2) / 7, "calls.query": 1}),
    ]


def edited(change: Callable[[list[Case]], None]) -> list[Case]:
    cases = copy.deepcopy(base_cases())
    change(cases)
    return cases


def ulp(x: Any, n: float = 1) -> Any:
    """``x`` moved by ``n`` ulps (NaN and infinities stay)."""
    with np.errstate(invalid="ignore"):
        return np.where(np.isfinite(x), x + n * np.spacing(x), x)


def set_item(case: Case, attribute: str, key: Any, value: Any) -> None:
    container = getattr(case, attribute)
    if isinstance(container, tuple):
        setattr(case, attribute, tuple(value if i == key else v for i, v in enumerate(container)))
    else:
        container[key] = value


PASSES: dict[str, Callable[[list[Case]], None]] = {
    "an expected array moved by one ulp": lambda c: set_item(c[0], "expected", slice(None), ulp(c[0].expected)),
    "a mistake output moved by a few ulps": lambda c: c[0].mistakes.update(
        wrong_axis=ulp(c[0].mistakes["wrong_axis"], 4)),
    "a number in a tuple moved by one ulp": lambda c: set_item(c[1], "expected", 1, float(ulp(0.7))),
    "a dict output moved by 1e-13": lambda c: c[2].expected.update(out=c[2].expected["out"] + 1e-13),
    # a computed input (RoPE-rotated cached keys: numpy's AVX-512 sin/cos round otherwise)
    "an input moved by one ulp": lambda c: c[0].inputs.update(Z=ulp(c[0].inputs["Z"])),
}

FAILS: dict[str, tuple[Callable[[list[Case]], None], str]] = {
    "an expected value moved by 1e-9": (
        lambda c: set_item(c[0], "expected", slice(None), c[0].expected + 1e-9), "sm/expected"),
    "a mistake output moved by 1e-9 relative": (
        lambda c: c[0].mistakes.update(wrong_axis=c[0].mistakes["wrong_axis"] * (1 + 1e-9)), "sm/mistake"),
    "a number moved by 1e-9": (lambda c: set_item(c[1], "expected", 1, 0.7 + 1e-9), "tup/expected/1"),
    "an input moved by 1e-9 relative": (lambda c: c[0].inputs.update(Z=c[0].inputs["Z"] * (1 + 1e-9)), "sm/input/Z"),
    "an input drawn with another seed": (
        lambda c: c[0].inputs.update(Z=np.random.default_rng(4).standard_normal((2, 3))), "sm/input/Z"),
    "an input's dtype": (lambda c: c[0].inputs.update(Z=c[0].inputs["Z"].astype(np.float32)), "float32[2, 3]"),
    "a NaN became a number": (lambda c: c[0].expected.__setitem__((1, 0), 0.0), "NaN or infinite"),
    "a shape": (lambda c: set_item(c[1], "expected", 0, np.full((2, 1), 1 / 3)),
                "float64[2, 1], regenerated float64[1, 2]"),
    "a dtype": (lambda c: set_item(c[1], "expected", 3, np.arange(3, dtype=np.int32)),
                "int32[3], regenerated int64[3]"),
    "a boolean": (lambda c: set_item(c[1], "expected", 2, np.array([False, False])), "tup/expected/2"),
    "an integer count": (lambda c: c[2].expected.update({"calls.query": 2}), "calls.query"),
    "a float became an int": (lambda c: set_item(c[1], "expected", 1, 1), "stored int, regenerated float"),
    "an input name": (lambda c: setattr(c[2], "inputs", {"y": np.ones(2)}), "keys"),
    "a mistake id": (lambda c: setattr(c[0], "mistakes", {"other": c[0].mistakes["wrong_axis"]}), "keys"),
    "a seed": (lambda c: setattr(c[0], "seed", 2), "seed"),
    "a description": (lambda c: setattr(c[0], "description", "e"), "description"),
    "the case order": (lambda c: c.reverse(), "case ids"),
    "a case removed": (lambda c: c.pop(), "case ids"),
}


def diff(cases: list[Case]) -> list[str]:
    fresh = loads_cases(dumps_cases(base_cases()))
    return stored.differences(loads_cases(dumps_cases(cases)), fresh)


@pytest.mark.parametrize("change", PASSES.values(), ids=PASSES.keys())
def test_float_rounding_is_not_a_change(change) -> None:
    cases = edited(change)
    assert dumps_cases(cases) != dumps_cases(base_cases())  # the bytes did change
    assert diff(cases) == []


@pytest.mark.parametrize(("change", "reported"), FAILS.values(), ids=FAILS.keys())
def test_a_real_change_is_reported(change, reported: str) -> None:
    found = diff(edited(change))
    assert found and reported in " ".join(found), found


def write_set(root: Path, cases: list[Case], manifest: bool = True) -> None:
    data = dumps_cases(cases)
    (root / "c.npz").write_bytes(data)
    if manifest:
        (root / "m.json").write_bytes(dumps_manifest(cases, data, npz_name="c.npz"))


@pytest.fixture
def tiny_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> regen.CaseSet:
    monkeypatch.setattr(regen, "REPO", tmp_path)
    return regen.CaseSet("tiny", "c.npz", "unused:unused", manifest="m.json")


def fresh_files() -> dict[str, bytes]:
    data = dumps_cases(base_cases())
    return {"c.npz": data, "m.json": dumps_manifest(base_cases(), data, npz_name="c.npz")}


def test_a_file_within_rounding_is_kept_byte_for_byte_with_its_manifest(tmp_path, tiny_set, capsys) -> None:
    cases = edited(PASSES["an expected array moved by one ulp"])
    write_set(tmp_path, cases)
    files = fresh_files()
    assert regen.stale_files(tiny_set, files) == {}
    assert files["c.npz"] == (tmp_path / "c.npz").read_bytes()  # regen would rewrite nothing
    assert files["m.json"] == (tmp_path / "m.json").read_bytes()
    assert "equal within 1e-12" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("damage", "stale"),
    [
        (lambda root: (root / "c.npz").write_bytes(dumps_cases(edited(FAILS["an input moved by 1e-9 relative"][0]))),
         {"c.npz", "m.json"}),
        (lambda root: (root / "c.npz").write_bytes(b"not a zip"), {"c.npz", "m.json"}),
        (lambda root: (root / "m.json").unlink(), {"m.json"}),
        (lambda root: (root / "m.json").write_text(
            json.dumps({**json.loads((root / "m.json").read_text()), "sha256": "0" * 64})), {"m.json"}),
        (lambda root: (root / "m.json").write_text(
            json.dumps({**json.loads((root / "m.json").read_text()), "functions": {}})), {"m.json"}),
    ],
    ids=["changed input", "unreadable npz", "missing manifest", "manifest sha of other bytes", "manifest content"],
)
def test_stale_files_are_named(tmp_path, tiny_set, damage, stale: set[str]) -> None:
    write_set(tmp_path, base_cases())
    damage(tmp_path)
    assert set(regen.stale_files(tiny_set, fresh_files())) == stale


def test_the_manifest_numpy_version_alone_is_not_stale(tmp_path, tiny_set) -> None:
    write_set(tmp_path, base_cases())
    manifest = json.loads((tmp_path / "m.json").read_text())
    (tmp_path / "m.json").write_text(json.dumps({**manifest, "numpy": "0.0.1"}))
    assert regen.stale_files(tiny_set, fresh_files()) == {}


def test_a_file_not_in_the_deterministic_layout_is_stale(tmp_path, tiny_set) -> None:
    with zipfile.ZipFile(tmp_path / "c.npz", "w", compression=zipfile.ZIP_DEFLATED) as out, zipfile.ZipFile(
        io.BytesIO(dumps_cases(base_cases()))
    ) as source:
        for name in source.namelist():
            out.writestr(name, source.read(name))
    assert "deterministic layout" in regen.stale_files(tiny_set, fresh_files())["c.npz"]


@pytest.mark.parametrize("case_set", [PUBLIC, GRADED], ids=["public", "graded"])
def test_the_committed_files_are_fresh_and_kept_byte_for_byte(case_set: regen.CaseSet) -> None:
    files = regen.render(case_set)
    assert regen.stale_files(case_set, files) == {}
    for path, data in files.items():
        assert (REPO / path).read_bytes() == data, path
