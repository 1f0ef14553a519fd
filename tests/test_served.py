"""Served dependencies (issue 21): during one probe call the submission's module-level names stand for correct
functions whose answers the grader computes; nothing served outlives that call, and the worker is discarded."""

from __future__ import annotations

import numpy as np
import pytest

from autograder.sandbox.callbacks import Served
from autograder.sandbox.student import Student, StudentError
from tests.homework import module as homework_module
from tests.hostile import REFERENCE, program, sandbox_user

oracle = homework_module('generated.oracle')
objects = homework_module('diagnosis.objects')
Layer = objects.Layer

BROKEN = '''
KEPT = []

def softmax(Z, axis=-1, temperature=1.0):
    return np.zeros_like(Z)

def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    KEPT.append(softmax)  # a stand-in kept for later
    weights = softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1]))
    return weights @ V, weights

def use_kept(Z):
    return KEPT[-1](Z)

def forged(layer, x, kind, ident):  # a proxy of the grader's, claiming to be another of its objects
    return decode_step(type(layer)(lambda *args: None, (kind, ident)), x, KVCache())

class _MyCache(KVCache):
    pass

def own_cache(layer, x):  # an object of the student's own, handed to a stand-in
    return decode_step(layer, x, _MyCache())

class KVCache:
    def __init__(self):
        self.k = None
    def append(self, k, v):
        self.k, self.v = np.atleast_2d(k), np.atleast_2d(v)  # overwrites: the cache keeps one token
    @property
    def keys(self):
        return self.k
    @property
    def values(self):
        return self.v
    def __len__(self):
        return len(self.k)
'''


@pytest.fixture()
def student():
    with sandbox_user() as user, Student(program(REFERENCE.read_text(), BROKEN), user=user) as s:
        yield s


def test_a_served_callee_answers_only_during_its_probe_call(student: Student) -> None:
    rng = np.random.default_rng(0)
    Q, K, V = rng.normal(size=(3, 4)), rng.normal(size=(5, 4)), rng.normal(size=(5, 2))
    expected = oracle.scaled_dot_product_attention(Q, K, V)
    mine = student.call("scaled_dot_product_attention", Q, K, V)
    assert not np.allclose(mine[0], expected[0])
    served = Served({"softmax": oracle.softmax})
    probed = student.call_served(served, "scaled_dot_product_attention", Q, K, V)
    assert np.allclose(probed[0], expected[0]) and served.calls == 1
    with pytest.raises(StudentError, match="no longer valid"):  # the kept stand-in gets no answer afterwards
        student.call("use_kept", np.ones((2, 3)))
    before = student.generation
    student.discard()
    assert np.allclose(student.call("scaled_dot_product_attention", Q, K, V)[0], mine[0])  # a fresh worker, own code
    assert student.generation == before + 1
    assert np.array_equal(student.call("use_kept", np.ones((2, 3))), np.zeros((2, 3)))  # only its own softmax kept


def test_a_served_kv_cache_is_a_correct_cache_kept_by_the_grader(student: Student) -> None:
    rng = np.random.default_rng(1)
    W = rng.normal(size=(4, 3)), rng.normal(size=(4, 3)), rng.normal(size=(4, 2))
    X = rng.normal(size=(5, 4))
    expected = oracle.generate_cached(oracle.AttentionLayer(*W), X)
    wrong = student.call("generate_cached", Layer(*W), X)
    served = Served({"KVCache": objects.Cache, "softmax": oracle.softmax})  # its softmax is broken too
    right = student.call_served(served, "generate_cached", Layer(*W), X)
    assert len(served.instances) == 1 and len(served.instances[0]) == 5  # one correct cache, every token in it
    assert np.allclose(right, expected) and not np.allclose(wrong, expected)


def test_a_served_stand_in_is_given_the_graders_own_objects(student: Student) -> None:
    """The reference's generate_cached hands a served decode_step the grader's layer and a served cache: both reach
    the stand-in as the grader's own objects (the layer counts its projections as in a scored call)."""
    rng = np.random.default_rng(2)
    W = rng.normal(size=(4, 3)), rng.normal(size=(4, 3)), rng.normal(size=(4, 2))
    X = rng.normal(size=(5, 4))
    layer = Layer(*W)
    served = Served({"decode_step": oracle.decode_step, "KVCache": objects.Cache})
    out = student.call_served(served, "generate_cached", layer, X)
    assert np.allclose(out, oracle.generate_cached(oracle.AttentionLayer(*W), X))
    assert served.used["decode_step"] == 5 and layer.counts == {"query": 5, "key": 5, "value": 5}


@pytest.mark.parametrize(("kind", "ident"), [("object", 7), ("instance", 3), ("handle", 1), ("object", -1),
                                             ("served", 0)])
def test_a_forged_object_reference_reaches_no_object_of_the_graders(student: Student, kind: str, ident: int) -> None:
    """A proxy made by the student's code naming another object (one this call was not given, a served instance that
    was never made, a worker handle, a malformed ref) is refused in the student's call, as an exception there."""
    layer = Layer(np.eye(3), np.eye(3), np.eye(3))
    served = Served({"decode_step": oracle.decode_step, "KVCache": objects.Cache})
    with pytest.raises(StudentError) as raised:
        student.call_served(served, "forged", layer, np.ones(3), kind, ident)
    assert raised.value.kind == "exception", raised.value.message
    assert layer.counts == {"query": 0, "key": 0, "value": 0} and "decode_step" not in served.used
    assert student.call("softmax", np.zeros((2, 3))).shape == (2, 3)


def test_an_object_of_the_students_own_cannot_be_handed_to_a_stand_in(student: Student) -> None:
    """A served stand-in runs in the grader: the student's own cache stays in their process, and the call that hands
    it over raises there (a probe that needs it serves a correct class beside it: callees.companions)."""
    served = Served({"decode_step": oracle.decode_step})
    with pytest.raises(StudentError, match=r"KVCache|_MyCache") as raised:
        student.call_served(served, "own_cache", Layer(np.eye(3), np.eye(3), np.eye(3)), np.ones(3))
    assert raised.value.kind == "exception"
