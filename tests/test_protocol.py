"""The frame format and value encoding: round trips, and every malformed input is a ProtocolError."""

from __future__ import annotations

import io
import json
import math
import pickle
import struct
from pathlib import Path

import numpy as np
import pytest

from autograder.sandbox import protocol
from autograder.sandbox.protocol import EncodeError, ProtocolError, Ref


def roundtrip(value):
    tree, arrays = protocol.encode(value)
    header, got = protocol.read_frame(io.BytesIO(protocol.pack_frame({"v": tree}, arrays)))
    return protocol.decode(header["v"], got)


def frame(header: bytes, *blobs: bytes) -> bytes:
    """A hand-made frame: JSON bytes, then raw blobs each at a 64-byte boundary."""
    body = struct.pack(">Q", len(header)) + header
    for blob in blobs:
        body += b"\0" * (-len(body) % 64) + blob
    return struct.pack(">Q", len(body)) + body


def npy(array: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.lib.format.write_array(buf, array, allow_pickle=False)
    return buf.getvalue()


def test_values_of_every_supported_kind_round_trip() -> None:
    value = (np.arange(6.0).reshape(2, 3), [1, 2.5, True, None, "text"], (np.float32(1.5), np.int64(7)),
             np.array([[True, False]]), np.zeros((0, 4)), math.inf, -math.inf, Ref("object", 3))
    got = roundtrip(value)
    assert isinstance(got, tuple) and isinstance(got[1], list)
    np.testing.assert_array_equal(got[0], value[0])
    assert got[1] == [1, 2.5, True, None, "text"] and type(got[1][2]) is bool
    assert got[2] == (1.5, 7)
    assert got[3].dtype == bool and got[4].shape == (0, 4)
    assert got[5:7] == (math.inf, -math.inf)
    assert got[7] == Ref("object", 3)
    assert math.isnan(roundtrip(math.nan))


def test_dtype_and_memory_layout_are_preserved() -> None:
    for array in (np.arange(12, dtype=np.float32).reshape(3, 4), np.asfortranarray(np.eye(3)),
                  np.arange(10)[::3], np.arange(4, dtype=">f8"), np.array(3.0), np.arange(5, dtype=np.uint8)):
        got = roundtrip(array)
        assert got.dtype == array.dtype and got.shape == array.shape
        np.testing.assert_array_equal(got, array)


def test_received_arrays_are_read_only_for_good() -> None:
    got = roundtrip(np.ones(3))
    with pytest.raises(ValueError, match="read-only"):
        got[0] = 2.0
    with pytest.raises(ValueError):
        got.flags.writeable = True


@pytest.mark.parametrize(("value", "says"), [
    (np.ones(2, dtype=complex), "complex128 array"),
    (np.array([object()]), "object array"),
    (np.zeros(2, dtype=[("a", "f8")]), "array"),
    ({"a": 1}, "a dict"),
    (lambda x: x, "a function"),
    (1 + 2j, "a complex"),
    (2**70, "too large"),
    (b"bytes", "a bytes"),
])
def test_encode_refuses_what_cannot_be_sent_and_says_what_it_is(value, says) -> None:
    with pytest.raises(EncodeError, match=says):
        protocol.encode(value)


def test_encode_names_the_offending_item() -> None:
    with pytest.raises(EncodeError, match="item 1 of the result is a dict"):
        protocol.encode((np.ones(2), {}), name="the result")


def test_self_referencing_or_huge_values_are_refused() -> None:
    loop: list = []
    loop.append(loop)
    with pytest.raises(EncodeError, match="nested too deeply"):
        protocol.encode(loop)
    with pytest.raises(EncodeError, match="too many items"):
        protocol.encode([None] * (protocol.MAX_NODES + 1))


def test_a_frame_over_the_size_limit_cannot_be_written() -> None:
    with pytest.raises(EncodeError, match="MiB"):
        protocol.pack_frame({}, [np.zeros(protocol.MAX_FRAME // 8 + 1)])


@pytest.mark.parametrize(("data", "says"), [
    (b"", "closed"),
    (b"\0\0\0", "middle of a frame"),
    (struct.pack(">Q", protocol.MAX_FRAME + 1), "frame length"),
    (struct.pack(">Q", 100) + b"short", "middle of a frame"),
    (frame(b"[1, 2]"), "not a JSON object"),
    (frame(b"{bad json"), "bad JSON"),
    (frame(b'{"x": NaN}'), "NaN not allowed"),
    (frame(b'{"x": ' + b"9" * 5000 + b"}"), "integer too long"),
    (frame(b"{}" + b"\xff"), "bad JSON"),
    (frame(b"{}", b"not an npy blob"), "npy"),
    (frame(b"{}", npy(np.ones(3))[:-8]), "past the frame"),
    (frame(b"{}", npy(np.ones(3, dtype=complex))), "dtype complex128 not accepted"),
    (frame(b"{}", npy(np.zeros(2, dtype=[("a", "<f8")]))), "not accepted"),
])
def test_malformed_frames_raise_protocol_error(data, says) -> None:
    with pytest.raises(ProtocolError, match=says):
        protocol.read_frame(io.BytesIO(data))


def test_a_huge_declared_shape_is_refused_before_allocating() -> None:
    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(buf, {"descr": "<f8", "fortran_order": False, "shape": (10**12,)})
    with pytest.raises(ProtocolError, match="past the frame"):
        protocol.read_frame(io.BytesIO(frame(b"{}", buf.getvalue() + b"\0" * 8)))


def npy_header(shape, descr: str = "<f8", version=(1, 0)) -> bytes:
    """An npy header declaring any shape, even one numpy would never write."""
    buf = io.BytesIO()
    np.lib.format._write_array_header(buf, {"descr": descr, "fortran_order": False, "shape": shape}, version)
    return buf.getvalue()


CRAFTED_HEADERS = {  # id: (npy blob, what the ProtocolError says)
    "negative-shape": (npy_header((-1, -1)) + b"\0" * 8, "shape"),  # red-team 17a: became the fallback result
    "negative-1d": (npy_header((-1,)), "shape"),
    "huge-empty": (npy_header((2**62, 2**62, 0)), "past the frame"),  # red-team 17b: an "internal error"
    "dim-past-int64": (npy_header((0, 2**63)), "past the frame"),
    "dim-past-uint64": (npy_header((2**64, 0)), "past the frame"),
    "33-dims": (npy_header((1,) * 33) + b"\0" * 8, "too many dimensions"),
    "65-dims": (npy_header((1,) * 65) + b"\0" * 8, "too many dimensions"),
    "v2-short-data": (npy_header((2, 3), version=(2, 0)) + b"\0" * 47, "past the frame"),
    "bad-descr": (npy_header((1,), descr="<f8" * 3000), "npy header"),
    "unclosed-dict": (b"\x93NUMPY\x01\x00" + struct.pack("<H", 64) + b"{" + b"(" * 62 + b"\n", "npy header"),
    "deep-parens": (b"\x93NUMPY\x01\x00" + struct.pack("<H", 4000) + b"(" * 3999 + b"\n", "npy header"),
    "version-3": (b"\x93NUMPY\x03\x00" + b"\0" * 60, "npy"),
}


@pytest.mark.parametrize(("blob", "says"), list(CRAFTED_HEADERS.values()), ids=list(CRAFTED_HEADERS))
def test_a_crafted_npy_header_is_a_protocol_error(blob, says) -> None:
    with pytest.raises(ProtocolError, match=says):
        protocol.read_frame(io.BytesIO(frame(b'{"op": "result"}', blob)))


def test_any_failure_while_parsing_a_body_is_a_protocol_error(monkeypatch) -> None:
    def broken(*args, **kwargs):
        raise OverflowError("something numpy did not expect")

    monkeypatch.setattr(np, "frombuffer", broken)
    with pytest.raises(ProtocolError, match="OverflowError"):
        protocol.unpack_body(frame(b"{}", npy(np.ones(2)))[8:])


def test_empty_and_zero_sized_arrays_still_round_trip() -> None:
    for shape in [(0,), (3, 0), (0, 2**20), ()]:
        got = roundtrip(np.zeros(shape))
        assert got.shape == shape


def test_a_pickle_payload_is_never_unpickled(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"

    class Evil:
        def __reduce__(self):
            return (Path.touch, (marker,))

    buf = io.BytesIO()
    np.lib.format.write_array(buf, np.array([Evil()], dtype=object), allow_pickle=True)
    with pytest.raises(ProtocolError, match="dtype object not accepted"):
        protocol.read_frame(io.BytesIO(frame(b"{}", buf.getvalue())))
    with pytest.raises(ProtocolError):  # nor through the JSON side
        protocol.decode({"t": "pickle", "v": pickle.dumps(Evil()).hex()}, [])
    assert not marker.exists()


@pytest.mark.parametrize("tree", [
    {"t": "array", "i": 1},
    {"t": "array", "i": True},
    {"t": "num", "v": "1e5"},
    {"t": "num", "v": [1]},
    {"t": "bool", "v": 1},
    {"t": "str", "v": 3},
    {"t": "tuple", "items": "ab"},
    {"t": "ref", "kind": "module", "id": 1},
    {"t": "ref", "kind": "handle", "id": -1},
    {"t": "object", "v": "os.system"},
    ["t", "none"],
])
def test_malformed_trees_raise_protocol_error(tree) -> None:
    with pytest.raises(ProtocolError):
        protocol.decode(tree, [np.ones(1)])


def test_deep_trees_and_refs_can_be_refused() -> None:
    deep: dict = {"t": "none"}
    for _ in range(protocol.MAX_DEPTH + 2):
        deep = {"t": "list", "items": [deep]}
    with pytest.raises(ProtocolError, match="too deeply"):
        protocol.decode(deep, [])
    with pytest.raises(ProtocolError):
        protocol.decode({"t": "ref", "kind": "handle", "id": 1}, [], allow_refs=False)


def test_deeply_nested_json_is_a_protocol_error_not_a_crash() -> None:
    with pytest.raises(ProtocolError):
        protocol.read_frame(io.BytesIO(frame(b"[" * 100_000 + b"]" * 100_000)))


def test_headers_are_plain_json() -> None:
    data = protocol.pack_frame({"op": "x", "n": 1}, [np.ones(2)])
    length = struct.unpack(">Q", data[8:16])[0]
    assert json.loads(data[16:16 + length]) == {"op": "x", "n": 1}
    with pytest.raises(EncodeError):
        protocol.pack_frame({"x": object()})
    with pytest.raises(EncodeError):
        protocol.pack_frame({"x": math.nan})


LAYOUTS = [np.arange(6.0).reshape(2, 3), np.array(2.5), np.zeros((0, 3)), np.arange(4, dtype=">f8"),
           np.array([True, False]), np.arange(24, dtype=np.int32).reshape(2, 3, 4), np.ones((1,) * 32, np.uint8),
           np.arange(70.0), np.float32([1, 2]), np.arange(10)[::3]]


@pytest.mark.parametrize("array", LAYOUTS, ids=lambda a: f"{a.dtype.str}{a.shape}")
def test_npy_blob_writes_the_bytes_numpy_writes(array) -> None:
    """The frame writer builds its npy headers itself (no header dict for numpy to format, none to evaluate when
    read): byte for byte what np.lib.format.write_array writes, so the blobs stay plain .npy files."""
    buf = io.BytesIO()
    np.lib.format.write_array(buf, np.ascontiguousarray(array) if array.ndim else array, allow_pickle=False)
    assert b"".join(bytes(part) for part in protocol.npy_blob(array)) == buf.getvalue()


@pytest.mark.parametrize("array", [*LAYOUTS, np.asfortranarray(np.arange(6.0).reshape(2, 3))],
                         ids=lambda a: f"{a.dtype.str}{a.shape}{'F' if a.flags.f_contiguous else ''}")
def test_read_npy_reads_what_numpy_writes(array) -> None:
    """The header is matched against the layout numpy writes (never evaluated): every real layout, Fortran order
    included, reads back equal and read-only."""
    buf = io.BytesIO()
    np.lib.format.write_array(buf, array, allow_pickle=False)
    got, end = protocol.read_npy(buf.getvalue())
    assert end == len(buf.getvalue()) and got.dtype == array.dtype and got.shape == array.shape
    assert np.array_equal(got, array) and not got.flags.writeable


# ----------------------------------------------------------------------------
# Compact frames (a grader object's method of one float vector: the attention homework's layer.query(x)...)
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("what", [0, 1, 2, 254])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_a_projection_reads_back_as_the_callback_it_stands_for(what, dtype) -> None:
    x = np.arange(5, dtype=dtype) / 3
    header, arrays = protocol.read_frame(io.BytesIO(protocol.pack_projection(what, 7, x)))
    assert header == {"op": "callback", "kind": "object", "ref": 7, "method": what,
                      "args": {"t": "tuple", "items": [{"t": "array", "i": 0}]}, "compact": True}
    (got,) = protocol.decode(header["args"], arrays)
    assert got.dtype == dtype and not got.flags.writeable
    np.testing.assert_array_equal(got, x)


def test_a_projection_reply_reads_back_as_a_reply() -> None:
    header, arrays = protocol.read_frame(io.BytesIO(protocol.pack_projection(protocol.REPLY, 0, np.array([1.5, -2.0]))))
    assert header["op"] == "reply"
    np.testing.assert_array_equal(protocol.decode(header["value"], arrays), [1.5, -2.0])


@pytest.mark.parametrize("x", [[1.0, 2.0], np.ones((2, 2)), np.arange(3), np.ones(3, dtype=">f8"), np.float64(1.0),
                               np.ones(protocol.MAX_PROJECTION + 1), np.ones(2).view(np.memmap),
                               np.ones(3, dtype=bool)],
                         ids=["list", "2-d", "int", "big-endian", "scalar", "too-long", "subclass", "bool"])
def test_only_one_float_token_gets_a_compact_frame(x) -> None:
    assert protocol.pack_projection(1, 0, x) is None  # the JSON frames carry (and validate) the rest


def projection(what: int = 1, dtype: int = 0, zero: int = 0, ref: int = 0, count: int = 2, data: bytes = b"\0" * 16,
               magic: bytes = b"PROJ") -> bytes:
    body = struct.pack("<4sBBHII", magic, what, dtype, zero, ref, count) + data
    return struct.pack(">Q", len(body)) + body


@pytest.mark.parametrize("data, says", [
    (projection(dtype=2), "bad projection frame"),
    (projection(zero=1), "bad projection frame"),
    (projection(count=protocol.MAX_PROJECTION + 1), "bad projection frame"),
    (projection(count=3), "wrong length"),
    (projection(data=b"\0" * 17), "wrong length"),
    (projection(count=2**32 - 1, data=b""), "bad projection frame"),
    (struct.pack(">Q", 10) + b"PROJ\x01\x00\x00\x00\x00\x00", "truncated projection frame"),
], ids=["dtype", "padding", "too-long", "short-data", "long-data", "huge-count", "truncated"])
def test_malformed_projection_frames_raise_protocol_error(data, says) -> None:
    with pytest.raises(ProtocolError, match=says):
        protocol.read_frame(io.BytesIO(data))
