"""Fixtures shared by several test files."""

from __future__ import annotations

import pytest

from autograder import runner
from autograder.results import plugin


@pytest.fixture(scope="module")
def suite() -> list[dict]:
    """Every graded test as results.json lists it (collected, not run)."""
    collector = plugin.ResultsPlugin()
    code = pytest.main([*runner._pytest_args(), "--collect-only"], plugins=[collector])
    assert code == pytest.ExitCode.OK, collector.collection_errors
    return [t.to_json() for t in collector.tests]
