"""Issue 22, finding 1: appended to the reference. Lines of attention.py that write a load-progress frame of their
own to the grader's pipe (the worker's argv[2]), naming a chunk that does not exist, then end the worker with
status 0."""

import json as _json
import os as _os
import struct as _struct
import sys as _sys

_header = _json.dumps({"op": "progress", "chunk": 99, "stmt": 0, "line": 1}).encode()
_frame = _struct.pack(">Q", 8 + len(_header)) + _struct.pack(">Q", len(_header)) + _header
_os.write(int(_sys.argv[2]), _frame), _os._exit(0)  # one statement: no progress frame of the worker's after it
