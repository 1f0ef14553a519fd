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


def pytest_configure(config: pytest.Config) -> None:
    """``AUTOGRADER_TEST_ZYGOTE=1``: every worker of this test run is forked from a zygote, as in a batch's
    gradings (sandbox/zygotes.py), so that the sandbox's tests check that path too."""
    import os

    if os.environ.get("AUTOGRADER_TEST_ZYGOTE") == "1":
        from autograder.sandbox import zygotes

        why = zygotes.start()
        if why:
            pytest.exit(f"AUTOGRADER_TEST_ZYGOTE=1: no zygote can run here ({why}); nothing to test", returncode=0)
        zygotes.strict = True  # no silent fallback to the usual start
