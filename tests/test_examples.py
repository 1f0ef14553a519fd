"""The demo's example submissions stay in step with the reference."""

from __future__ import annotations

from pathlib import Path

import pytest

from autograder.commands import demo


@pytest.mark.parametrize("name", sorted(demo.load_buggy_specs()))
def test_each_buggy_example_applies_to_the_current_reference(name: str, tmp_path: Path) -> None:
    made = dict((path.parent.name, path) for _, path in demo.write_buggy_examples(tmp_path))
    source = made[name].read_text()
    compile(source, str(made[name]), "exec")
    assert source != (demo.REPO / "reference" / "attention.py").read_text()


def test_a_replacement_that_no_longer_applies_is_an_error() -> None:
    with pytest.raises(ValueError, match="exactly one occurrence"):
        demo.apply_replacements("x = 1\n", [["y = 2", "y = 3"]], "stale")


def fake_results(score: float, failing: int) -> dict:
    feedback = "\n".join(f"feedback line {i}" for i in range(40))
    tests = [{"name": f"[C.{i}] test {i}", "number": f"C.{i}", "score": 0.0, "max_score": 1.0, "status": "failed",
              "visibility": "visible", "output": feedback} for i in range(failing)]
    tests += [{"name": "ok", "score": score, "max_score": 100.0 - failing, "status": "passed", "visibility": "visible"}]
    return {"score": score, "tests": tests}


def test_the_demo_prints_a_table_one_excerpt_and_the_zip_within_60_lines(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setattr(demo.build, "build_zip", lambda path: path)
    monkeypatch.setattr(demo.build, "zip_members", lambda: ["x"] * 46)
    monkeypatch.setattr(demo.grade, "grade", lambda path: fake_results(50.0, 30))
    zip_path = tmp_path / "autograder.zip"
    assert demo.main(["-o", str(zip_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) <= 60, "\n".join(lines)
    rows = [line for line in lines if "50 / 100" in line]
    assert len(rows) == 2 + len(demo.load_buggy_specs()) + len(list((demo.EXAMPLES / "hostile").iterdir()))
    assert sum("feedback line 0" in line for line in lines) == 1  # one excerpt
    assert str(zip_path) in lines[-1]
