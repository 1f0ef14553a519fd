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
