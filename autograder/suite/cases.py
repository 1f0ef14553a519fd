"""The stored-case format: inputs, expected outputs and known-mistake outputs in one .npz.

A ``Case`` is one call of a contract function on fixed inputs. The public fixtures
(``student_template/public_cases.npz``) and the graded suite's cases use this format;
``python -m autograder regen`` writes both (see ``regen.py``).

Calling convention (what a test does with a case)
    * ``inputs`` are the leading arguments, positionally, in order; parameters after
      them take their defaults (so a case omits ``scale`` to test the default scale).
    * Names with a dot are parts of ONE object argument, passed where its first part is:
      ``layer.W_Q``, ``layer.W_K``, ``layer.W_V``  -> ``layer``, an AttentionLayer(W_Q, W_K, W_V)
      ``cache.keys``, ``cache.values``           -> ``cache``, a KV cache already holding
      these rows (shape (0, d): empty). ``call_arguments`` does the grouping.
    * Function ``"KVCache"``: inputs ``k`` and ``v`` are tuples of arrays; the case is
      ``cache = KVCache()`` and then ``cache.append(k[i], v[i])`` for each i.

``expected`` is either one output (an array, number, bool, None, str, or a tuple of
those) or, for the stateful Part F functions, a dict of named outputs:
    KVCache       keys, values, lengths (int array: len(cache) after each append)
    decode_step   out, cache.keys, cache.values, calls.query, calls.key, calls.value
    generate_*    out, calls.query, calls.key, calls.value
``mistakes`` maps a known-mistake id (``feedback.MISTAKES``) to that mistake's output on
the same inputs, with the structure of ``expected``; only mistakes whose output differs
from ``expected`` beyond tolerance are stored.

File layout: a zip (``np.load(path, allow_pickle=False)`` reads it) whose entries are
sorted, stored uncompressed, dated 1980-01-01: one ``.npy`` per array, named
``<case id>/input/<name>``, ``<case id>/expected[/<item>]``, ``<case id>/mistake/<id>[/<item>]``
(``<item>`` a tuple index or dict key), and ``index.json``: the cases in order, each value
as a tree ``{"t": "array", "entry": name}``, ``{"t": "num", "v": x}`` (nan/inf as strings),
``{"t": "bool"|"str", "v": x}``, ``{"t": "none"}``, ``{"t": "tuple", "items": [...]}`` or
``{"t": "dict", "items": [[name, tree], ...]}``. The same bytes come out on every run.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import re
import struct
import zipfile
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from autograder.sandbox import protocol

FORMAT = "attention-cases/1"  # the case file format's name (kept from its first homework: files carry it)
INDEX = "index.json"
FIXED_TIME = (1980, 1, 1, 0, 0, 0)
NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")  # case ids, input names, dict keys, mistake ids
REAL_KINDS = "biuf"  # bool, int, unsigned, float: nothing that needs pickle


SEED_SALT = "attention-cases/seed/1"  # the engine's salt (never changed: every stored case would be drawn anew)


def case_seed(case_set: str, case_id: str, seed: str | None = None) -> int:
    """The seed a case draws its inputs with: from its set's name and its own id alone (never its position).

    Adding, removing or reordering cases changes no other case's inputs. A stable hash (sha256, not
    Python's ``hash()``, which varies per process), salted with ``SEED_SALT`` and the set's name, so a
    public case and a graded one of the same id never share their draws; and with the homework's ``SEED``
    (``seed``, default the loaded homework's), so a course draws every case anew for a new year by setting it
    in homework.py (then ``regen``). Left empty, the draws are the ones it always had.

    >>> case_seed("graded", "softmax-rows", "") != case_seed("public", "softmax-rows", "")
    True
    >>> case_seed("graded", "softmax-rows", "") != case_seed("graded", "softmax-rows", "2027")
    True
    """
    if seed is None:
        from autograder import contract

        seed = str(contract.HOMEWORK.SEED)
    salt = f"{SEED_SALT}/{seed}" if seed else SEED_SALT
    digest = hashlib.sha256(f"{salt}/{case_set}/{case_id}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


class CaseFormatError(ValueError):
    """A case cannot be stored (bad name, unsupported value) or a file is not a case file."""


@dataclass
class Case:
    """One stored call of a contract function (see the module docstring for the convention)."""

    id: str
    function: str
    inputs: dict[str, Any]
    expected: Any
    mistakes: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    description: str = ""


def call_arguments(inputs: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """The call's arguments in order: ``(name, value)``, or ``(object, {part: value})`` for dotted names.

    >>> call_arguments({"layer.W_Q": 1, "layer.W_K": 2, "x": 3})
    [('layer', {'W_Q': 1, 'W_K': 2}), ('x', 3)]
    """
    arguments: list[tuple[str, Any]] = []
    objects: dict[str, dict[str, Any]] = {}
    for name, value in inputs.items():
        owner, dot, part = name.partition(".")
        if not dot:
            arguments.append((name, value))
        elif owner in objects:
            objects[owner][part] = value
        else:
            objects[owner] = {part: value}
            arguments.append((owner, objects[owner]))
    return arguments


# ----------------------------------------------------------------------------
# Writing
# ----------------------------------------------------------------------------


def dumps_cases(cases: Iterable[Case]) -> bytes:
    """The .npz file's bytes (deterministic: the same cases give the same bytes)."""
    entries: dict[str, bytes] = {}
    index = []
    seen: set[str] = set()
    for case in cases:
        _check_name(case.id, "case id")
        if case.id in seen:
            raise CaseFormatError(f"duplicate case id {case.id!r}")
        seen.add(case.id)
        store = _Encoder(entries, case.id)
        index.append(
            {
                "id": case.id,
                "function": case.function,
                "inputs": [[_check_name(k, "input name"), store(v, "input", k)] for k, v in case.inputs.items()],
                "expected": store(case.expected, "expected"),
                "mistakes": [[_check_name(k, "mistake id"), store(v, "mistake", k)] for k, v in case.mistakes.items()],
                "seed": case.seed,
                "description": case.description,
            }
        )
    entries[INDEX] = _json_bytes({"format": FORMAT, "cases": index})
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_STORED) as zf:
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, date_time=FIXED_TIME)
            info.create_system = 3  # unix, whatever the platform
            info.external_attr = 0o100644 << 16
            zf.writestr(info, entries[name])
    return buffer.getvalue()


def save_cases(path: str | Path, cases: Iterable[Case]) -> bytes:
    """Write the cases to ``path`` (one .npz); returns the bytes written."""
    data = dumps_cases(cases)
    _write_bytes(Path(path), data)
    return data


class _Encoder:
    """Turns one case's values into index trees, adding each array as an .npy entry."""

    def __init__(self, entries: dict[str, bytes], case_id: str) -> None:
        self.entries, self.case_id = entries, case_id

    def __call__(self, value: Any, *path: str) -> dict:
        where = "/".join((self.case_id, *path))
        if isinstance(value, np.ndarray):
            if value.dtype.kind not in REAL_KINDS:
                raise CaseFormatError(f"{where}: arrays must be bool, int or float, not {value.dtype}")
            name = where + ".npy"
            out = io.BytesIO()
            np.lib.format.write_array(out, np.array(value, order="C"), allow_pickle=False)  # 0-d stays 0-d
            self.entries[name] = out.getvalue()
            return {"t": "array", "entry": name}
        if value is None:
            return {"t": "none"}
        if isinstance(value, (bool, np.bool_)):
            return {"t": "bool", "v": bool(value)}
        if isinstance(value, (int, np.integer)):
            return {"t": "num", "v": int(value)}
        if isinstance(value, (float, np.floating)):
            x = float(value)
            return {"t": "num", "v": x if math.isfinite(x) else repr(x)}  # 'nan', 'inf', '-inf'
        if isinstance(value, str):
            return {"t": "str", "v": value}
        if isinstance(value, tuple):
            return {"t": "tuple", "items": [self(item, *path, str(i)) for i, item in enumerate(value)]}
        if isinstance(value, Mapping):
            return {"t": "dict", "items": [[_check_name(k, "key"), self(v, *path, k)] for k, v in value.items()]}
        raise CaseFormatError(f"{where}: cannot store a value of type {type(value).__name__}")


def _check_name(name: Any, what: str) -> str:
    if not isinstance(name, str) or not NAME.match(name):
        raise CaseFormatError(f"bad {what} {name!r}: use letters, digits, '_', '.', '-'")
    return name


def _json_bytes(data: Any) -> bytes:
    return (json.dumps(data, sort_keys=True, indent=1, allow_nan=False) + "\n").encode()


def _write_bytes(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)


# ----------------------------------------------------------------------------
# Reading
# ----------------------------------------------------------------------------


def read_array(data: bytes) -> np.ndarray:
    """One stored array from its npy bytes, read-only: the protocol's npy reader (a header matched, not
    evaluated: ~10x faster than numpy's for the suite's ~2,000 small arrays), numpy's for any layout it does
    not take."""
    try:
        array, end = protocol.read_npy(data, 0, kinds="biufcUS")
        if end == len(data):
            return array
    except protocol.ProtocolError:
        pass
    array = np.lib.format.read_array(io.BytesIO(data), allow_pickle=False)
    array.setflags(write=False)
    return array


_LOCAL_HEADER = struct.Struct("<4s22xHH")  # a zip entry's local header: signature ... name and extra lengths


def _stored_entries(zf: zipfile.ZipFile, data: bytes) -> dict[str, bytes]:
    """Every uncompressed entry's bytes, sliced straight out of the file (zipfile's per-entry open costs ~40 us,
    0.1 s for the suite), each checked against its CRC; entries of any other kind are left to zipfile."""
    entries = {}
    for info in zf.infolist():
        start = info.header_offset
        signature, name_length, extra_length = _LOCAL_HEADER.unpack_from(data, start)
        begin = start + _LOCAL_HEADER.size + name_length + extra_length
        chunk = data[begin : begin + info.file_size]
        if (info.compress_type == zipfile.ZIP_STORED and signature == b"PK\x03\x04"
                and len(chunk) == info.file_size == info.compress_size and zlib.crc32(chunk) == info.CRC):
            entries[info.filename] = chunk
    return entries


def load_cases(path: str | Path) -> dict[str, Case]:
    """The cases stored in ``path``, by id, in stored order. Arrays come back read-only."""
    return loads_cases(Path(path).read_bytes())


def loads_cases(data: bytes) -> dict[str, Case]:
    """Like load_cases, from the file's bytes."""
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        stored = _stored_entries(zf, data)
        index = json.loads(zf.read(INDEX))
        if index.get("format") != FORMAT:
            raise CaseFormatError(f"not a case file of format {FORMAT} (found {index.get('format')!r})")

        def decode(node: dict) -> Any:
            kind = node["t"]
            if kind == "array":
                entry = node["entry"]
                return read_array(stored[entry] if entry in stored else zf.read(entry))
            if kind == "num":
                return float(node["v"]) if isinstance(node["v"], str) else node["v"]
            if kind in ("bool", "str"):
                return node["v"]
            if kind == "none":
                return None
            if kind == "tuple":
                return tuple(decode(item) for item in node["items"])
            if kind == "dict":
                return {key: decode(item) for key, item in node["items"]}
            raise CaseFormatError(f"unknown value kind {kind!r}")

        return {
            c["id"]: Case(
                id=c["id"],
                function=c["function"],
                inputs={name: decode(node) for name, node in c["inputs"]},
                expected=decode(c["expected"]),
                mistakes={name: decode(node) for name, node in c["mistakes"]},
                seed=c["seed"],
                description=c["description"],
            )
            for c in index["cases"]
        }


# ----------------------------------------------------------------------------
# Manifest: what a case file holds, for review and for checking it is the one expected
# ----------------------------------------------------------------------------


def manifest(cases: Iterable[Case], npz_data: bytes, *, npz_name: str) -> dict:
    """A JSON-able summary: numpy version, sha256 of the .npz, and every case's seed and shapes."""
    cases = list(cases)
    counts: dict[str, int] = {}
    for case in cases:
        counts[case.function] = counts.get(case.function, 0) + 1
    return {
        "format": FORMAT,
        "npz": npz_name,
        "sha256": hashlib.sha256(npz_data).hexdigest(),
        "numpy": np.__version__,
        "functions": counts,
        "cases": [
            {
                "id": case.id,
                "function": case.function,
                "seed": case.seed,
                "description": case.description,
                "inputs": {name: _shape_of(value) for name, value in case.inputs.items()},
                "expected": _shape_of(case.expected),
                "mistakes": sorted(case.mistakes),
            }
            for case in cases
        ],
    }


def dumps_manifest(cases: Iterable[Case], npz_data: bytes, *, npz_name: str) -> bytes:
    """The manifest's bytes (sorted keys, one trailing newline)."""
    return _json_bytes(manifest(cases, npz_data, npz_name=npz_name))


def write_manifest(path_json: str | Path, cases: Iterable[Case], npz_path: str | Path) -> bytes:
    """Write the manifest of the .npz at ``npz_path`` (already saved) to ``path_json``."""
    npz_path = Path(npz_path)
    data = dumps_manifest(cases, npz_path.read_bytes(), npz_name=npz_path.name)
    _write_bytes(Path(path_json), data)
    return data


def _shape_of(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return {"shape": list(value.shape), "dtype": str(value.dtype)}
    if isinstance(value, tuple):
        return [_shape_of(item) for item in value]
    if isinstance(value, Mapping):
        return {key: _shape_of(item) for key, item in value.items()}
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if isinstance(value, (np.generic,)):
        return value.item()
    return value
