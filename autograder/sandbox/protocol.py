"""Framing between the grader and the sandboxed worker: JSON headers plus raw .npy arrays.

A frame is an 8-byte big-endian body length followed by the body::

    body = u64 json_length | JSON header (utf-8) | zero padding to 64 | npy blob | padding | npy blob ...

Each array is one version 1.0 ``.npy`` blob, byte for byte what ``np.lib.format.write_array``
writes (``npy_blob``), and starts at a 64-byte boundary. Reading never unpickles and never
evaluates anything: the JSON is parsed with strict hooks; each npy header is *matched* against
the one layout numpy writes (``read_npy``: a regular expression, not numpy's ``ast.literal_eval``,
~10x faster) and validated (real or bool dtype, at most 32 non-negative dimensions, declared
size within the frame) *before* any allocation; validated headers are remembered per process.
The array is a read-only view of the received bytes (``flags.writeable`` cannot be switched
back on). Whatever goes wrong while parsing a frame is a ProtocolError.

One exchange has compact frames of its own: a grader object's method of one float vector (its
``VECTOR`` methods, callbacks.py: the attention homework's ``layer.query/key/value(x)`` of one token, about
two thirds of a grading's exchanges). Their body is a fixed 16-byte head and the raw values, no JSON and
no npy header (``pack_projection``); ``unpack_body`` reads one as the callback or reply it stands for, so
the rest of the code sees one kind of frame (its ``method``: the index into the object's ``VECTOR``)::

    body = b"PROJ" | u8 what (the method's index; 255 reply) | u8 dtype (0 <f8, 1 <f4) | u16 0
         | u32 object ref | u32 count | count values

A JSON frame's body starts with its header length (big-endian, below 2**32): never b"PROJ".

Values travel as a tree (``encode``/``decode``) whose leaves point into the array list:
``{"t": "array", "i": k}``, ``{"t": "num", "v": x}`` (nan/inf as strings), ``{"t": "bool", "v": b}``,
``{"t": "none"}``, ``{"t": "str", "v": s}``, ``{"t": "tuple"|"list", "items": [...]}`` and
``{"t": "ref", "kind": "object"|"handle", "id": n}``.

This module is copied next to worker.py into the sandbox, so it imports only the
standard library and numpy.
"""

from __future__ import annotations

import json
import math
import re
import struct
import types
from collections.abc import Sequence
from typing import Any, BinaryIO

import numpy as np

MAX_FRAME = 64 * 2**20  # bytes in one frame body
MAX_HEADER = 4 * 2**20  # bytes of JSON in a frame from the worker (what the grader parses)
# ... and in a frame to the worker: the load request carries the whole Program, so this is above intake's
# WIRE_LIMIT (intake/source.py) and every file intake accepts loads (tests/test_intake_bounds.py checks it)
MAX_REQUEST_HEADER = 16 * 2**20
MAX_DEPTH = 32  # nesting of tuples/lists in a value
MAX_NDIM = 32  # dimensions of one array (numpy's own limit is 64)
MAX_NODES = 100_000  # tree nodes in a value
MAX_STR = 2**20  # characters in one string value
ALIGN = 64
REF_KINDS = ("object", "handle", "instance")  # a grader object, a worker handle, a served class's instance
REAL_KINDS = "biuf"  # bool, signed int, unsigned int, float

_PREFIX = struct.Struct(">Q")
_NONFINITE = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}


class ProtocolError(Exception):
    """A frame or value tree is malformed, too large, or not allowed."""


class ConnectionClosedError(ProtocolError):
    """The peer closed the pipe at a frame boundary."""


class EncodeError(ValueError):
    """A value cannot be sent (wrong type, complex dtype, too large...); the message says why."""


class Ref:
    """A reference to an object that lives on one side only (a grader object, a worker handle). A plain class:
    importing ``dataclasses`` costs every worker start ~7 ms."""

    __slots__ = ("id", "kind")

    def __init__(self, kind: str, id: int) -> None:
        self.kind, self.id = kind, id

    def __eq__(self, other: object) -> bool:
        return type(other) is Ref and (self.kind, self.id) == (other.kind, other.id)

    def __hash__(self) -> int:
        return hash((self.kind, self.id))

    def __repr__(self) -> str:
        return f"Ref(kind={self.kind!r}, id={self.id!r})"


# ----------------------------------------------------------------------------
# Frames
# ----------------------------------------------------------------------------


def pack_frame(header: dict, arrays: Sequence[np.ndarray] = (), max_header: int = MAX_HEADER) -> bytes:
    """The bytes of one frame (length prefix included); raises EncodeError when too large (a header of
    more than ``max_header`` bytes: ``MAX_REQUEST_HEADER`` for the grader's requests)."""
    try:
        text = _ENCODER.encode(header).encode()
    except (TypeError, ValueError) as e:
        raise EncodeError(f"header is not plain JSON: {e}") from None
    if len(text) > max_header:
        raise EncodeError(f"header of {len(text)} bytes exceeds {max_header}")
    parts: list[bytes | memoryview] = [_PREFIX.pack(len(text)), text]
    size = _PREFIX.size + len(text)
    for array in arrays:
        _check_array(array, "array")
        parts.append(b"\0" * (_align(size) - size))
        size = _align(size)
        for part in npy_blob(array):
            parts.append(part)
            size += part.nbytes if isinstance(part, memoryview) else len(part)
        if size > MAX_FRAME:
            raise EncodeError(f"more than {MAX_FRAME // 2**20} MiB of array data")
    return _PREFIX.pack(size) + b"".join(parts)


def body_length(prefix: bytes, max_bytes: int = MAX_FRAME) -> int:
    """The body length announced by an 8-byte frame prefix."""
    if len(prefix) != _PREFIX.size:
        raise ProtocolError("truncated frame prefix")
    (length,) = _PREFIX.unpack(prefix)
    if length < _PREFIX.size or length > max_bytes:
        raise ProtocolError(f"frame length {length} outside 8..{max_bytes}")
    return length


def unpack_body(body: bytes, max_header: int = MAX_HEADER) -> tuple[dict, list[np.ndarray]]:
    """Parse a frame body into its header and read-only arrays; anything malformed is a ProtocolError."""
    try:
        return _unpack_body(bytes(body), max_header)
    except ProtocolError:
        raise
    except Exception as e:  # the body comes from student code: no other exception may escape
        raise ProtocolError(f"malformed frame: {type(e).__name__}") from None


def _unpack_body(body: bytes, max_header: int) -> tuple[dict, list[np.ndarray]]:
    if body[:4] == PROJECTION:
        return _unpack_projection(body)
    if len(body) < _PREFIX.size:
        raise ProtocolError("truncated frame body")
    (json_length,) = _PREFIX.unpack_from(body)
    end = _PREFIX.size + json_length
    if json_length > max_header or end > len(body):
        raise ProtocolError("bad header length")
    header = _parse_json(body[_PREFIX.size : end])
    arrays = []
    offset = end
    while offset < len(body):  # each blob starts at the next 64-byte boundary
        array, offset = read_npy(body, _align(offset))
        arrays.append(array)
    return header, arrays


# What a zygote-forked worker's first process (zygote.py) tells the grader (zygotes.py) on their status socket:
ZYGOTE_HELLO = struct.Struct("<cq")  # b"P" and its pid, with pidfds of itself and of the world's init alongside
ZYGOTE_STATUS = struct.Struct("<ci")  # b"S" and the world's exit status, as ``unshare --fork`` reports it

PROJECTION = b"PROJ"
REPLY = 255  # the ``what`` byte of a compact reply; a callback's is its method's index (below 255)
PROJECTION_DTYPES = (np.dtype("<f8"), np.dtype("<f4"))  # its ``dtype`` byte
MAX_PROJECTION = 2**16  # values in one compact frame (a token of the graded cases has at most a few hundred)
_PROJECTION_HEAD = struct.Struct("<4sBBHII")
_FIRST_ARRAY = {"t": "array", "i": 0}  # the value tree of a compact reply
_ONE_ARRAY = {"t": "tuple", "items": [_FIRST_ARRAY]}  # ... and of a compact callback's arguments


def pack_projection(what: int, ref: int, x: Any) -> bytes | None:
    """The compact frame (length prefix included) of vector method number ``what`` of grader object ``ref`` called
    with ``x``, or of the reply ``x`` (``what`` REPLY); None when ``x`` is not a small 1-d float64/float32 array
    (the JSON frames carry it)."""
    if type(x) is not np.ndarray or x.ndim != 1 or x.dtype not in PROJECTION_DTYPES or x.size > MAX_PROJECTION:
        return None
    if type(what) is not int or not 0 <= what <= REPLY:
        return None
    head = _PROJECTION_HEAD.pack(PROJECTION, what, PROJECTION_DTYPES.index(x.dtype), 0, ref, x.size)
    data = x.tobytes()
    return _PREFIX.pack(len(head) + len(data)) + head + data


def _unpack_projection(body: bytes) -> tuple[dict, list[np.ndarray]]:
    """A compact frame as the JSON frame it stands for: an object's callback (arguments: one array) or a reply."""
    if len(body) < _PROJECTION_HEAD.size:
        raise ProtocolError("truncated projection frame")
    _, what, dtype, zero, ref, count = _PROJECTION_HEAD.unpack_from(body)
    if dtype >= len(PROJECTION_DTYPES) or zero or count > MAX_PROJECTION:
        raise ProtocolError("bad projection frame")
    dtype = PROJECTION_DTYPES[dtype]
    if len(body) != _PROJECTION_HEAD.size + count * dtype.itemsize:
        raise ProtocolError("projection frame of the wrong length")
    x = np.frombuffer(body, dtype=dtype, count=count, offset=_PROJECTION_HEAD.size)  # read-only: body is bytes
    if what == REPLY:
        return {"op": "reply", "value": _FIRST_ARRAY, "compact": True}, [x]
    return {"op": "callback", "kind": "object", "ref": ref, "method": what, "args": _ONE_ARRAY, "compact": True}, [x]


def write_frame(f: BinaryIO, header: dict, arrays: Sequence[np.ndarray] = ()) -> None:
    """Write one frame and flush."""
    f.write(pack_frame(header, arrays))
    f.flush()


def read_frame(f: BinaryIO, max_bytes: int = MAX_FRAME, max_header: int = MAX_HEADER) -> tuple[dict, list[np.ndarray]]:
    """Read one frame (blocking); ConnectionClosed at a clean end of stream, else ProtocolError."""
    prefix = _read_exact(f, _PREFIX.size, allow_eof=True)
    return unpack_body(_read_exact(f, body_length(prefix, max_bytes)), max_header)


def _read_exact(f: BinaryIO, n: int, allow_eof: bool = False) -> bytes:
    chunks, got = [], 0
    while got < n:
        chunk = f.read(n - got)
        if not chunk:
            if got == 0 and allow_eof:
                raise ConnectionClosedError("the other side closed the pipe")
            raise ProtocolError("the pipe closed in the middle of a frame")
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def _reject_constant(name: str) -> None:
    raise ProtocolError(f"JSON constant {name} not allowed")


def _parse_int(digits: str) -> int:
    if len(digits) > 20:  # keeps int() linear-time and the value within 64 bits
        raise ProtocolError("integer too long")
    return int(digits)


_ENCODER = json.JSONEncoder(allow_nan=False, separators=(",", ":"))  # made once: json.dumps with options makes
_DECODER = json.JSONDecoder(parse_constant=_reject_constant, parse_int=_parse_int)  # one per call


def _parse_json(text: bytes) -> dict:
    try:
        header = _DECODER.decode(text.decode("utf-8"))
    except ProtocolError:
        raise
    except (ValueError, RecursionError) as e:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        raise ProtocolError(f"bad JSON header: {type(e).__name__}") from None
    if not isinstance(header, dict):
        raise ProtocolError("header is not a JSON object")
    return header


_NPY_MAGIC = b"\x93NUMPY"
# The one header layout numpy (and ``npy_blob``) writes: {'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }
# padded with spaces to a 64-byte boundary and ended by a newline. Matched, never evaluated (no ast, no eval).
_NPY_HEADER = re.compile(
    r"\{'descr': '([<>|=]?[A-Za-z][0-9]{0,4})', 'fortran_order': (True|False), 'shape': \(([-0-9, ]{0,1000})\), \} *\n")
_NPY_INT = re.compile(r"-?[0-9]{1,40}")


def read_npy(body: bytes, offset: int = 0, kinds: str = REAL_KINDS) -> tuple[np.ndarray, int]:
    """The array of the npy blob at ``offset`` of ``body`` (a read-only view: ``body`` is bytes) and the blob's
    end. The header is validated before anything is allocated: version 1 or 2, a dtype of ``kinds`` (real or
    bool by default; never an object, so never a pickle), at most MAX_NDIM non-negative dimensions, data
    within ``body``. ProtocolError otherwise."""
    if body[offset : offset + 6] != _NPY_MAGIC or len(body) < offset + 10:
        raise ProtocolError("not an npy blob (bad magic)")
    version = (body[offset + 6], body[offset + 7])
    if version == (1, 0):
        (length,), start = struct.unpack_from("<H", body, offset + 8), offset + 10
    elif version == (2, 0) and len(body) >= offset + 12:
        (length,), start = struct.unpack_from("<I", body, offset + 8), offset + 12
    else:
        raise ProtocolError(f"npy version {version} not accepted")
    if start + length > len(body) or length > 4096:
        raise ProtocolError("npy header not accepted: it extends past the frame or is too long")
    text = body[start : start + length]
    known = _headers.get((text, kinds))  # the suite and the protocol repeat a few hundred headers
    dtype, shape, fortran = known if known is not None else _parse_npy_header(text, kinds)
    count = math.prod(shape)
    data = start + length
    end = data + count * dtype.itemsize
    if end > len(body) or math.prod(max(n, 1) for n in shape) > MAX_FRAME:  # (2**40, 0) would overflow numpy
        raise ProtocolError("array data extends past the frame")
    if known is None and len(_headers) < MAX_KNOWN_HEADERS:
        _headers[(text, kinds)] = (dtype, shape, fortran)
    flat = np.frombuffer(body, dtype=dtype, count=count, offset=data)  # read-only: body is bytes
    return flat.reshape(shape, order="F" if fortran else "C"), end


MAX_KNOWN_HEADERS = 4096
_headers: dict[tuple[bytes, str], tuple[np.dtype, tuple[int, ...], bool]] = {}  # validated headers (bounded)


def _parse_npy_header(text: bytes, kinds: str) -> tuple[np.dtype, tuple[int, ...], bool]:
    """(dtype, shape, Fortran order) of an npy header that has the layout numpy writes; ProtocolError else."""
    match = _NPY_HEADER.fullmatch(text.decode("latin-1"))
    if match is None:
        raise ProtocolError("npy header not accepted: not the layout numpy writes")
    descr, fortran, shape_text = match.groups()
    try:
        dtype = np.dtype(descr)
    except TypeError:
        raise ProtocolError(f"npy header not accepted: unknown dtype {descr!r}") from None
    if dtype.kind not in kinds or dtype.fields is not None or dtype.subdtype is not None:
        raise ProtocolError(f"array dtype {dtype} not accepted")
    parts = [part.strip() for part in shape_text.split(",")]
    if parts and parts[-1] == "" and len(parts) > 1:
        parts.pop()  # "3," of a 1-d shape
    if parts == [""]:
        parts = []  # "()": a 0-d array
    if len(parts) > MAX_NDIM:
        raise ProtocolError("array has too many dimensions")
    if not all(_NPY_INT.fullmatch(part) for part in parts):
        raise ProtocolError(f"array shape ({shape_text[:80]}) not accepted")
    shape = tuple(int(part) for part in parts)
    if any(n < 0 for n in shape):
        raise ProtocolError(f"array shape {str(shape)[:80]} not accepted")
    return dtype, shape, fortran == "True"


def npy_blob(array: np.ndarray) -> list[bytes | memoryview]:
    """The parts of ``array`` as a version 1.0 npy blob (C order), as ``np.lib.format.write_array`` writes it,
    with no header dict to evaluate on either side (``read_npy`` matches it)."""
    if not array.flags.c_contiguous:
        array = array.copy(order="C")  # (np.ascontiguousarray would make a 0-d array 1-d)
    key = (array.dtype.str, array.shape)
    prefix = _prefixes.get(key)
    if prefix is None:
        header = f"{{'descr': {array.dtype.str!r}, 'fortran_order': False, 'shape': {tuple(array.shape)!r}, }}"
        header += " " * (-(10 + len(header) + 1) % ALIGN) + "\n"
        prefix = _NPY_MAGIC + b"\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin-1")
        if len(_prefixes) < MAX_KNOWN_HEADERS:
            _prefixes[key] = prefix
    return [prefix, memoryview(array.reshape(-1).view(np.uint8))]


_prefixes: dict[tuple[str, tuple[int, ...]], bytes] = {}


def _check_array(array: Any, where: str) -> None:
    if not isinstance(array, np.ndarray):
        raise EncodeError(f"{where} is {describe_type(array)}")
    dtype = array.dtype
    if dtype.kind not in REAL_KINDS or dtype.fields is not None or dtype.subdtype is not None:
        raise EncodeError(f"{where} is a {dtype} array (only real numbers or booleans)")


def _align(offset: int) -> int:
    return -(-offset // ALIGN) * ALIGN


# ----------------------------------------------------------------------------
# Values
# ----------------------------------------------------------------------------


def encode(value: Any, name: str = "the value") -> tuple[Any, list[np.ndarray]]:
    """The tree and array list of ``value``.

    Raises EncodeError naming the bad part, e.g. "item 1 of the result is a dict".
    """
    arrays: list[np.ndarray] = []
    nodes = [0]

    def walk(v: Any, where: str, depth: int) -> Any:
        nodes[0] += 1
        if nodes[0] > MAX_NODES or depth > MAX_DEPTH:
            raise EncodeError(f"{where} is nested too deeply or has too many items")
        if v is None:
            return {"t": "none"}
        if isinstance(v, (bool, np.bool_)):
            return {"t": "bool", "v": bool(v)}
        if isinstance(v, (int, np.integer)):
            if not -(2**63) <= int(v) < 2**64:
                raise EncodeError(f"{where} is an integer too large to send")
            return {"t": "num", "v": int(v)}
        if isinstance(v, (float, np.floating)):
            x = float(v)
            return {"t": "num", "v": x if math.isfinite(x) else repr(x)}
        if isinstance(v, str):
            if len(v) > MAX_STR:
                raise EncodeError(f"{where} is a string that is too long")
            return {"t": "str", "v": str(v)}
        if isinstance(v, Ref):
            return {"t": "ref", "kind": v.kind, "id": v.id}
        if isinstance(v, np.ndarray):
            _check_array(v, where)
            arrays.append(np.asarray(v))
            return {"t": "array", "i": len(arrays) - 1}
        if type(v) in (tuple, list):
            kind = "tuple" if type(v) is tuple else "list"
            return {"t": kind, "items": [walk(x, f"item {i} of {where}", depth + 1) for i, x in enumerate(v)]}
        raise EncodeError(f"{where} is {describe_type(v)}")

    return walk(value, name, 0), arrays


def decode(tree: Any, arrays: Sequence[np.ndarray], *, allow_refs: bool = True) -> Any:
    """Rebuild a value from its tree; only tuples, lists, arrays, numbers, bools, None, str, Ref."""
    nodes = [0]

    def walk(node: Any, depth: int) -> Any:
        nodes[0] += 1
        if nodes[0] > MAX_NODES or depth > MAX_DEPTH:
            raise ProtocolError("value nested too deeply or too large")
        if not isinstance(node, dict):
            raise ProtocolError("tree node is not an object")
        t = node.get("t")
        v = node.get("v")
        if t == "array":
            i = node.get("i")
            if type(i) is not int or not 0 <= i < len(arrays):
                raise ProtocolError("array index out of range")
            return arrays[i]
        if t == "num":
            if type(v) in (int, float):
                return v
            if isinstance(v, str) and v in _NONFINITE:
                return _NONFINITE[v]
            raise ProtocolError("bad number")
        if t == "bool" and type(v) is bool:
            return v
        if t == "none":
            return None
        if t == "str" and isinstance(v, str):
            return v
        if t in ("tuple", "list") and isinstance(node.get("items"), list):
            items = [walk(x, depth + 1) for x in node["items"]]
            return tuple(items) if t == "tuple" else items
        if t == "ref" and allow_refs:
            kind, ident = node.get("kind"), node.get("id")
            if kind in REF_KINDS and type(ident) is int and ident >= 0:
                return Ref(kind, ident)
        raise ProtocolError(f"bad tree node of type {str(t)[:20]!r}")

    return walk(tree, 0)


def describe_type(value: Any) -> str:
    """'a dict', 'a function', 'a complex128 array', ... for messages."""
    if isinstance(value, np.ndarray):
        return f"a {value.dtype} array"
    if isinstance(value, type):
        return "a class"
    if isinstance(value, (types.FunctionType, types.BuiltinFunctionType, types.MethodType)):
        return "a function"
    name = type(value).__name__
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"
