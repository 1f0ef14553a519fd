"""Student code that writes its own frames to the grader's pipe (the worker's argv[2]).

A frame whose .npy header declares an impossible shape must be a protocol error for the
grader: a crash of this submission, never an internal error or the fallback result.
"""

import io
import json
import os
import struct
import sys
import time

import numpy as np


def _crafted(shape, data):
    header = json.dumps({"op": "result", "value": {"t": "array", "i": 0}}).encode()
    body = struct.pack(">Q", len(header)) + header
    body += b"\0" * (-len(body) % 64)
    npy = io.BytesIO()
    np.lib.format._write_array_header(npy, {"descr": "<f8", "fortran_order": False, "shape": shape}, (1, 0))
    body += npy.getvalue() + data
    os.write(int(sys.argv[2]), struct.pack(">Q", len(body)) + body)
    time.sleep(30)  # the grader kills us long before


def negative_shape(Z):
    _crafted((-1, -1), b"\0" * 8)


def huge_empty_shape(Z):
    _crafted((2**62, 2**62, 0), b"")


def fine(Z):
    return Z + 1
