# Red team, round 4, case 3 (issue 28): a forged pass through a probe. Appended to the reference.
# softmax fails its own tests, so a failing test of scaled_dot_product_attention is probed with the grader's
# softmax served. The scored calls keep their inputs in System V shared memory (which outlives the worker where there
# is no IPC namespace); in the probe this code computes the right answers to all of them with the served softmax,
# keeps them there too and kills itself: before issue 28, the grading's free retry re-ran the scored test, whose
# calls replayed them.
import ctypes
import hashlib
import os
import pickle
import signal

import numpy as np

_libc = ctypes.CDLL(None, use_errno=True)
_libc.shmat.restype = ctypes.c_void_p
_KEY, _SIZE = 0x28C0FFEE, 1 << 20
_right_sdpa = scaled_dot_product_attention  # noqa: F821 - the reference's


def softmax(Z, axis=-1, temperature=1.0):
    Z = np.asarray(Z, dtype=float) / temperature
    e = np.exp(Z - Z.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True) * 1.01  # rows sum to 1.01


def _segment():
    ident = _libc.shmget(_KEY, _SIZE, 0o1666)  # IPC_CREAT | 0666
    if ident < 0:
        return None
    address = _libc.shmat(ident, None, 0)
    if address in (None, ctypes.c_void_p(-1).value):
        return None
    return address


def _stash(segment):
    size = int.from_bytes(ctypes.string_at(segment, 8), "little")
    try:
        return pickle.loads(ctypes.string_at(segment + 8, size)) if 0 < size < _SIZE - 8 else {}
    except Exception:
        return {}


def _key(*values):
    return hashlib.sha256(repr([np.asarray(v).tobytes() if v is not None else None for v in values]).encode())\
        .hexdigest()


def _store(segment, stash):
    data = pickle.dumps(stash)
    data = len(data).to_bytes(8, "little") + data
    ctypes.memmove(segment, data, min(len(data), _SIZE))


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    segment = _segment()
    key = _key(Q, K, V, mask, scale)
    if segment is None:
        return _right_sdpa(Q, K, V, mask, scale)  # with the own softmax: wrong
    stash = _stash(segment)
    if softmax.__code__.co_name == "served":  # a probe: the grader's softmax answers every input seen so far
        for seen_key, args in stash.get("seen", {}).items():
            stash[seen_key] = _right_sdpa(*args)
        _store(segment, stash)
        os.kill(os.getpid(), signal.SIGKILL)
    if key in stash:
        return stash[key]
    stash.setdefault("seen", {})[key] = (Q, K, V, mask, scale)  # a scored call: its inputs, for a later probe
    _store(segment, stash)
    return _right_sdpa(Q, K, V, mask, scale)


def stashed():
    segment = _segment()
    return np.array([-1.0 if segment is None else float(len(_stash(segment)))])
