"""One probe budget per graded test: every call the diagnosis makes of the student's code is charged to it.

The scored calls are never charged, so a test's score never depends on the budget; past the budget a probe is
refused (nothing of the student's runs) and the test names no likely mistake (a search cut short may have read a
refused probe as evidence against a cause).
"""

from __future__ import annotations

import numpy as np
import pytest

from autograder.suite.graded import probing, support
from tests.test_evidence import LocalStudent, ref


class Counting(LocalStudent):
    """A LocalStudent that counts the calls that reach it (scored and probes)."""

    calls = 0

    def call(self, name, *args):
        self.calls += 1
        return super().call(name, *args)


def scale_ignored(Q, K, V, mask=None, scale=None):
    return ref.scaled_dot_product_attention(Q, K, V, mask=mask, scale=None)


def heads_of_full_width(X, W_Q, W_K, W_V, W_O, n_heads, mask=None):
    return ref.multi_head_attention(X, W_Q, W_K, W_V, W_O, 1, mask=mask)


CASES = {  # a test number, its function, its cases and a student's function whose diagnosis needs probes
    "scale": ("C.4", "scaled_dot_product_attention", ("sdpa-default-scale", "sdpa-explicit-scale"), scale_ignored),
    "heads": ("D.6", "multi_head_attention", None, heads_of_full_width),
}


def graded_test(key: str):
    number, function, cases, wrong = CASES[key]
    if cases is None:
        cases = tuple(case_id for case_id, c in support.all_cases().items()
                      if c.function == function and case_id.startswith("random-"))
        assert cases, f"no random cases of {function}"

    @support.graded(number, function)
    def test(student):
        support.check(student, *cases, shapes=key == "heads")

    return test, Counting(**{function: wrong}), len(cases)


def run(test, student) -> str:
    with pytest.raises(pytest.fail.Exception) as info:
        test(student)
    return str(info.value)


def probe_calls(test) -> int:
    return max([e["calls"] for e in test.__evidence__ if e["sentence"] == "probes"] or [0])


@pytest.mark.parametrize("key", CASES)
def test_a_spent_budget_refuses_probes_names_nothing_and_leaves_the_score(key, monkeypatch):
    test, student, n_cases = graded_test(key)
    full = run(test, student)
    named, used = list(test.__mistakes__), probe_calls(test)
    assert named and used >= 1, "the diagnosis of this mistake should name it with probes"
    assert "reached their limit" not in full
    assert student.calls <= n_cases + used

    monkeypatch.setattr(probing, "PROBE_CALLS", used - 1)
    test, student, n_cases = graded_test(key)
    cut = run(test, student)
    assert test.__mistakes__ == [] and "**Likely mistake:**" not in cut
    assert f"reached their limit of {used - 1} calls" in cut
    assert student.calls <= n_cases + used - 1  # the refused probe never reached the student
    assert probe_calls(test) == used - 1
    # the same cases fail, with the same report of the first (the score is the scored calls')
    assert cut.split("**Case")[1].split("\n\n")[0] == full.split("**Case")[1].split("\n\n")[0]


def test_probe_calls_are_charged_only_through_probing_and_only_inside_a_test():
    student = Counting(softmax=ref.softmax)
    x = np.zeros((2, 3))
    with probing.per_test(2):
        student.call("softmax", x)  # a scored call: free
        probe = probing.probing(student)
        assert probing.probing(probe) is probe
        probe.call("softmax", x)
        probe.call("softmax", x)
        assert probing.used() == 2 and not probing.spent()
        with pytest.raises(probing.ProbeBudgetError) as refused:
            probe.call("softmax", x)
        assert refused.value.kind == "budget" and probing.spent()
        assert student.calls == 3
    for _ in range(5):  # outside a graded test nothing is counted
        probing.probing(student).call("softmax", x)
    assert student.calls == 8 and probing.used() == 0 and not probing.spent()
