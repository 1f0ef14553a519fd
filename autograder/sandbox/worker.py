"""The sandboxed side: run a student's Program, then serve the grader's requests.

Imported by the worker's command line (runfolder.py: ``python -I -B -u -c BOOT READ_FD WRITE_FD``),
which calls ``main``; self-contained (stdlib, numpy, protocol.py copied next to it). Nothing it
sends is trusted: the grader re-validates every frame and kills a worker that misbehaves. First
of all it makes itself not dumpable: other processes of its user cannot ptrace it or read its
/proc/PID/mem or environ.

1. Send ``ready``; receive ``load``. Execute each chunk statement by statement in one
   module named as the homework's upload (``if __name__ == "__main__":`` blocks do not run). A
   statement that raises or runs too long (SIGALRM) becomes a note and the next one runs;
   a chunk with a syntax error is skipped. A ``progress`` frame precedes each statement,
   so one that kills the worker is skipped on the next start.
2. Serve ``call`` / ``new`` / ``method`` / ``getattr`` / ``len``. Input arrays are
   read-only; the grader's objects (a homework's layer, cache...) arrive as proxies, made from each one's
   declared interface, whose methods send ``callback`` frames; results are checked before they are sent.
   Student stdout and stderr (fds 1, 2) go to a grader-owned file, never protocol data.
"""

from __future__ import annotations
import __future__

import ast
import builtins
import contextlib
import ctypes
import functools
import linecache
import os
import signal
import sys
import traceback
import types
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE 0, before any student code (see the docstring)
_HERE = os.path.dirname(os.path.abspath(__file__))
MESSAGE_LIMIT = 2000  # characters of an exception message
TRACEBACK_LIMIT = 6000  # characters of a traceback
MAX_HANDLES = 10_000
MAX_TRACKED = 200  # top-level functions whose calls are counted during a graded call
MAX_NOTES_SENT = 100  # load notes sent in full (timeouts always: the grader skips them); the rest are counted
DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)


def _import_protocol() -> tuple[types.ModuleType, ...]:
    """protocol.py, seccomp.py, worker_guards.py and worker_proxies.py sit next to this file; -I keeps this folder
    off sys.path, so add it briefly."""
    sys.path.insert(0, _HERE)
    try:
        import protocol
        import seccomp
        import worker_guards
        import worker_proxies
    finally:
        sys.path.remove(_HERE)
    return protocol, seccomp, worker_guards, worker_proxies


protocol, seccomp, worker_guards, worker_proxies = _import_protocol()
OWN_FILES = {os.path.abspath(m.__file__) for m in (sys.modules[__name__], protocol, worker_guards, worker_proxies)}
StatementTimeout, student_time, Alarm, alarm_blocked = (worker_guards.StatementTimeout, worker_guards.student_time,
                                                        worker_guards.Alarm, worker_guards.alarm_blocked)
OnlyNumpyAndStdlib, SubmittedModules = worker_guards.OnlyNumpyAndStdlib, worker_guards.SubmittedModules
proxy_class, served_stand_in = worker_proxies.proxy_class, worker_proxies.served_stand_in


class Channel:
    """The two protocol pipes; SIGALRM waits while a frame is in flight."""

    def __init__(self, read_fd: int, write_fd: int) -> None:
        self.rfile = open(read_fd, "rb")
        self.wfile = open(write_fd, "wb")

    def send(self, header: dict, arrays: Any = ()) -> None:
        self.send_frame(protocol.pack_frame(header, arrays))

    def send_frame(self, frame: bytes) -> None:
        with alarm_blocked():
            self.send_unblocked(frame)

    def receive(self) -> tuple[dict, list]:
        with alarm_blocked():
            return self.receive_unblocked()

    def send_unblocked(self, frame: bytes) -> None:
        """``send_frame`` for a caller that already blocks SIGALRM."""
        self.wfile.write(frame)
        self.wfile.flush()

    def receive_unblocked(self) -> tuple[dict, list]:
        """``receive`` for a caller that already blocks SIGALRM."""
        return protocol.read_frame(self.rfile, max_header=protocol.MAX_REQUEST_HEADER)  # a load: the Program


class Server:
    """Loads the Program into a module named as the homework's upload (the load request's ``module``), then
    answers requests."""

    def __init__(self, channel: Channel) -> None:
        self.channel = channel
        self.alarm = Alarm()
        self.module = types.ModuleType("submission")
        self.module.__dict__["__builtins__"] = builtins
        self.labels: dict[str, str] = {}  # code filename -> label shown to the student
        self.handles: dict[int, Any] = {}
        self.handle_of: dict[int, int] = {}  # id(obj) -> handle
        self.interfaces: dict[str, Any] = {}  # the current request's grader objects: ref -> declared interface
        self.future_flags = 0
        self.entered: dict[str, int] = {}  # top-level functions entered during the current call, with counts
        self.wrappers: dict[tuple[str, int], tuple[Callable[..., Any], Callable[..., Any]]] = {}  # see _wrapper

    def serve(self) -> None:
        while True:
            try:
                header, arrays = self.channel.receive()
            except protocol.ConnectionClosedError:
                return
            try:
                if header.get("op") == "load":
                    frame = protocol.pack_frame(self.load(header))
                else:
                    frame = self.handle(header, arrays)
            except BaseException as e:  # never let student code (or a bad request) end the loop
                frame = protocol.pack_frame(self.error(e))
            for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
                try:  # (not contextlib.suppress: this runs after every request)
                    stream.flush()
                except BaseException:  # the student's streams may be anything
                    pass
            self.channel.send_frame(frame)

    # -- loading ---------------------------------------------------------------

    def load(self, request: dict) -> dict:
        start = student_time()
        chunks, skip = request["chunks"], {tuple(x) for x in request.get("skip", [])}
        timeout, budget = float(request["statement_timeout"]), float(request["load_budget"])
        if type(request.get("cpu")) is int:  # the CPU of the grader's thread: every request and reply a context
            with contextlib.suppress(OSError, ValueError, OverflowError):  # switch, not a wake-up of another CPU
                os.sched_setaffinity(0, {request["cpu"]})
        notes: list[dict] = []
        name = str(request.get("module") or "")
        if name.isidentifier():  # the student's own tests `import <upload>`: this module
            self.module.__name__ = name
            sys.modules[name] = self.module
        self.add_modules(request.get("modules") or [])
        for ci, chunk in enumerate(chunks):
            unique = [c["filename"] for c in chunks].count(chunk["filename"]) == 1
            name = chunk["filename"] if unique else chunk["label"]
            name = name if name not in self.labels else f"{name} #{ci}"
            self.labels[name] = label = chunk["label"]
            first, lines = int(chunk["first_line"]), chunk["source"].splitlines(keepends=True)
            linecache.cache[name] = (len(chunk["source"]), None, ["\n"] * (first - 1) + lines, name)
            if (ci, -1) in skip:  # parsing it crashed an earlier worker (deeply nested code)
                continue
            self.channel.send({"op": "progress", "chunk": ci, "stmt": -1, "line": first})
            try:
                tree = ast.parse(chunk["source"], filename=name)
            except (SyntaxError, ValueError) as e:
                line = (getattr(e, "lineno", None) or 1) + first - 1
                notes.append({"kind": "syntax", "label": label, "line": line, "message": getattr(e, "msg", str(e))})
                continue
            ast.increment_lineno(tree, first - 1)
            for si, stmt in enumerate(tree.body):
                if (ci, si) in skip:  # it stopped an earlier worker; the grader has noted that
                    continue
                code = lines[stmt.lineno - first].strip()[:100] if stmt.lineno - first < len(lines) else ""
                entry = {"label": label, "line": stmt.lineno, "chunk": ci, "stmt": si, "code": code}
                if student_time() - start > budget and not isinstance(stmt, DEFINITIONS):
                    notes.append(dict(entry, kind="skipped", message=f"loading already took {budget:g} s"))
                    continue
                self.channel.send({"op": "progress", "chunk": ci, "stmt": si, "line": stmt.lineno})
                note = self.run_statement(stmt, name, timeout)
                if note:
                    notes.append(dict(entry, **note))
        sent = notes[:MAX_NOTES_SENT] + [n for n in notes[MAX_NOTES_SENT:] if n.get("kind") == "timeout"]
        return {"op": "loaded", "notes": sent, "more_notes": len(notes) - len(sent), "names": self.names(),
                "seconds": student_time() - start}

    def add_modules(self, modules: list[dict]) -> None:
        """Make the submission's own modules importable (``SubmittedModules``), their lines shown in tracebacks."""
        for module in modules:
            lines = module["source"].splitlines(keepends=True)
            linecache.cache[module["filename"]] = (len(module["source"]), None, lines, module["filename"])
            self.labels[module["filename"]] = module["label"]
        if modules:
            sys.meta_path.insert(0, SubmittedModules(modules))

    def run_statement(self, stmt: ast.stmt, filename: str, timeout: float) -> dict | None:
        """Execute one top-level statement; a note when it failed."""
        try:
            code = compile(ast.Module(body=[stmt], type_ignores=[]), filename, "exec",
                           flags=self.future_flags, dont_inherit=True)
            self.alarm.arm(timeout)
            try:
                exec(code, self.module.__dict__)
            finally:
                self.alarm.disarm()
        except BaseException as e:
            self.alarm.disarm()
            error = self.error(e)
            if isinstance(stmt, (ast.Import, ast.ImportFrom)) and error["kind"] in ("exception", "syntax"):
                error["kind"] = "import"
            return error
        if isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__":
            for alias in stmt.names:
                self.future_flags |= getattr(getattr(__future__, alias.name, None), "compiler_flag", 0)
        return None

    def names(self) -> dict[str, str]:
        out = {}
        for name, value in list(self.module.__dict__.items())[:5000]:
            if isinstance(name, str) and len(name) <= 200 and not name.startswith("__") and not isinstance(
                    value, types.ModuleType):
                out[name] = "class" if isinstance(value, type) else "function" if callable(value) else "other"
        return out

    # -- requests --------------------------------------------------------------

    def handle(self, header: dict, arrays: list) -> bytes:
        """The reply frame to one request (student code runs under the alarm)."""
        op, name = header.get("op"), header.get("name")
        target: Callable[..., Any]
        if op in ("call", "new"):
            target = self.module.__dict__.get(name)
            if not callable(target) or (op == "new") != isinstance(target, type):
                found = "not defined" if name not in self.module.__dict__ else protocol.describe_type(target)
                return protocol.pack_frame({"op": "error", "kind": "missing", "message": found})
        elif op in ("method", "getattr", "len"):
            obj = self.handles.get(header.get("handle"))
            if obj is None:
                return protocol.pack_frame({"op": "error", "kind": "missing", "message": "an unknown object"})
            if op == "method":
                def target(*args: Any, **kwargs: Any) -> Any:  # the lookup runs under the alarm too
                    return getattr(obj, name)(*args, **kwargs)
            else:
                target = functools.partial(getattr, obj, name) if op == "getattr" else functools.partial(len, obj)
        else:
            raise ValueError(f"unknown request {op!r}")
        objects = header.get("objects")
        self.interfaces = objects if isinstance(objects, dict) else {}  # this request's grader objects
        args, kwvalues = self.incoming(protocol.decode(header["args"], arrays))
        kwargs = dict(zip(header["kw"], kwvalues))
        entered: dict[str, int] = {}
        self.alarm.arm(float(header["timeout"]))
        try:
            with self.counting(entered, op == "call"), self.serving(header.get("served")):
                result = target(*args, **kwargs)
            if op == "new":
                return protocol.pack_frame({"op": "result", "handle": self.register(result)})
            tree, out_arrays = protocol.encode(self.outgoing(result), name="the result")
            return protocol.pack_frame({"op": "result", "value": tree, "entered": entered}, out_arrays)
        except protocol.EncodeError as e:
            self.alarm.disarm()
            return protocol.pack_frame({"op": "error", "kind": "invalid_output", "message": str(e), "entered": entered})
        except BaseException as e:
            self.alarm.disarm()
            return protocol.pack_frame(dict(self.error(e, params=array_params(target, args, kwargs)), entered=entered))
        finally:
            self.alarm.disarm()

    @contextlib.contextmanager
    def counting(self, entered: dict[str, int], on: bool) -> Iterator[None]:
        """Count the calls of the module's top-level functions during a call (plain data: names and counts).

        Each function is replaced, for the call only, by a wrapper that counts and calls it; calls
        through the module's globals (``softmax(...)`` inside ``scaled_dot_product_attention``) are seen.
        A top-level class counts when its own ``__init__`` or one of its own public methods runs (a cache class
        made and appended to inside the function under test).
        """
        self.entered = entered  # what the wrappers count into (made once per function: ~60 us a call saved)
        top = [(n, v) for n, v in self.module.__dict__.items() if not n.startswith("__") and len(n) <= 100][:5000]
        names = [n for n, v in top if isinstance(v, types.FunctionType)][:MAX_TRACKED] if on else []
        originals = {name: self.module.__dict__[name] for name in names}
        wrappers = {name: self._wrapper(name, fn) for name, fn in originals.items()}
        self.module.__dict__.update(wrappers)
        methods = []  # (class, method name, original): a class counts as entered when its own methods run
        for name, cls in ([(n, v) for n, v in top if isinstance(v, type)][:MAX_TRACKED] if on else []):
            own = [m for m in list(vars(cls))[:100] if m == "__init__" or not m.startswith("_")]
            for method in own:
                original = vars(cls).get(method)
                if isinstance(original, types.FunctionType):
                    with contextlib.suppress(Exception):
                        setattr(cls, method, self._wrapper(name, original))
                        methods.append((cls, method, original))
        try:
            yield
        finally:
            for name, wrapper in wrappers.items():
                if self.module.__dict__.get(name) is wrapper:
                    self.module.__dict__[name] = originals[name]
            for cls, method, original in methods:
                with contextlib.suppress(Exception):
                    setattr(cls, method, original)

    @contextlib.contextmanager
    def serving(self, served: Any) -> Iterator[None]:
        """For one call only, the module-level names ``served["names"]`` stand for grader-served dependencies
        (a probe: does this call pass with a correct ``softmax``?); their answers come from the grader, and only
        while this call runs (a stand-in kept and called later gets no answer: its ref belongs to this call)."""
        names = served.get("names") if isinstance(served, dict) else None
        if not isinstance(names, list) or type(served.get("ref")) is not int:
            yield
            return
        names = [n for n in names if isinstance(n, str) and n.isidentifier()][:20]
        objects = served.get("objects") if isinstance(served.get("objects"), dict) else {}
        missing = object()
        before = {name: self.module.__dict__.get(name, missing) for name in names}
        self.module.__dict__.update({name: served_stand_in(self.callback, served["ref"], name, objects.get(name))
                                     for name in names})
        try:
            yield
        finally:
            for name, value in before.items():
                if value is missing:
                    self.module.__dict__.pop(name, None)
                else:
                    self.module.__dict__[name] = value

    def _wrapper(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        """The counting wrapper of ``fn`` under ``name``, made once (while ``fn`` stays what ``name`` holds)."""
        known = self.wrappers.get((name, id(fn)))
        if known is not None and known[0] is fn:
            return known[1]
        if len(self.wrappers) >= 4 * MAX_TRACKED:
            self.wrappers.clear()
        wrapper = _counted(name, fn, self)
        self.wrappers[(name, id(fn))] = (fn, wrapper)
        return wrapper

    def incoming(self, value: Any) -> Any:
        """Refs become proxies or handle objects; arrays stay read-only views."""
        if isinstance(value, protocol.Ref):
            if value.kind == "object":
                interface = self.interfaces.get(str(value.id))
                if interface is None:
                    raise ValueError("unknown grader object")
                ident = value.id
                return proxy_class(interface)(lambda method, args, index: self.object_call(ident, method, args, index),
                                              ("object", ident))
            if value.id not in self.handles:
                raise ValueError("unknown object handle")
            return self.handles[value.id]
        if isinstance(value, (tuple, list)):
            return type(value)(self.incoming(x) for x in value)
        return value

    def outgoing(self, value: Any, depth: int = 0) -> Any:
        """Lists and tuples stay what they are (the grader tells a list from an array); handle objects become refs."""
        if depth > protocol.MAX_DEPTH:
            return value
        if id(value) in self.handle_of and self.handles.get(self.handle_of[id(value)]) is value:
            return protocol.Ref("handle", self.handle_of[id(value)])
        if isinstance(value, list):
            return [self.outgoing(x, depth + 1) for x in value]
        if isinstance(value, tuple):
            return tuple(self.outgoing(x, depth + 1) for x in value)
        return value

    def register(self, obj: Any) -> int:
        if len(self.handles) >= MAX_HANDLES:
            raise RuntimeError("too many objects created")
        handle = len(self.handles) + 1
        self.handles[handle], self.handle_of[id(obj)] = obj, handle
        return handle

    def object_call(self, ident: int, method: str, args: tuple, index: int | None) -> Any:
        """A grader object's ``method``: a compact frame (protocol.py) when it is one of the object's vector methods
        (``index``) called with one float vector, else ``callback``."""
        request = protocol.pack_projection(index, ident, args[0]) if index is not None and len(args) == 1 else None
        return self.callback("object", ident, method, args) if request is None else self.exchange(request)

    def callback(self, kind: str, ident: int, method: str, args: tuple) -> Any:
        """Ask the grader to run ``method`` of its object ``ident``; raises like a local call would. A served
        stand-in may be given the grader's own objects (the layer passed in, a served class's instance): they go
        back as refs, which the grader checks against this call's objects."""
        try:
            if kind == "served":
                args = _grader_refs(args)
            tree, arrays = protocol.encode(args, name=f"an argument of {kind}.{method}()")
        except protocol.EncodeError as e:
            raise TypeError(str(e)) from None
        return self.exchange(protocol.pack_frame({"op": "callback", "kind": kind, "ref": ident, "method": method,
                                                  "args": tree}, arrays))

    def exchange(self, request: bytes) -> Any:
        """Send one callback frame and return the grader's answer, or raise the error it reports."""
        with alarm_blocked():  # once for the round trip, which is the grader's time, not the student's
            began = student_time()
            self.channel.send_unblocked(request)
            header, arrays = self.channel.receive_unblocked()
            worker_guards.excluded(student_time() - began)
        if header.get("op") == "reply":
            return writable(protocol.decode(header.get("value"), arrays, allow_refs=False))
        exc_type = {"TypeError": TypeError, "ValueError": ValueError}.get(header.get("type"), RuntimeError)
        raise exc_type(str(header.get("message", "the grader refused this call"))[:MESSAGE_LIMIT])

    def error(self, exc: BaseException, params: list[str] | None = None) -> dict:
        """An error reply: kind, exception type and message, student location, trimmed traceback."""
        try:
            message = str(exc)
        except BaseException:
            message = "<the exception message could not be shown>"
        message = seccomp.explain(exc, message)  # a refused socket: say that the network is closed
        kind = "exception"
        if isinstance(exc, StatementTimeout):
            kind = "timeout"
        elif isinstance(exc, ValueError) and "read-only" in message:
            kind = "modified_input"
        elif isinstance(exc, SyntaxError) and exc.filename in self.labels:
            kind, message = "syntax", str(exc.msg)
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename not in OWN_FILES]
        mine = [f for f in frames if f.filename in self.labels]
        where = f"{self.labels[mine[-1].filename]}, line {mine[-1].lineno}" if mine else ""
        if kind == "syntax" and exc.lineno:  # e.g. in a module of the submission it imports: where, in that module
            where = f"{self.labels[exc.filename]}, line {exc.lineno}"
        if len(frames) > 20:
            frames = frames[:5] + frames[-12:]
        text = "".join(traceback.format_list(frames)) + f"{type(exc).__name__}: {message}"
        return {"op": "error", "kind": kind, "type": type(exc).__name__, "message": message[:MESSAGE_LIMIT],
                "where": where, "traceback": text[-TRACEBACK_LIMIT:], "params": params or []}


def _counted(name: str, fn: Callable[..., Any], server: Server) -> Callable[..., Any]:
    @functools.wraps(fn)
    def counted(*args: Any, **kwargs: Any) -> Any:
        entered = server.entered  # the call being made now
        entered[name] = entered.get(name, 0) + 1
        return fn(*args, **kwargs)

    return counted


def array_params(target: Callable[..., Any], args: tuple, kwargs: dict) -> list[str]:
    """Names of the parameters that received arrays (for 'modified its input `Z`')."""
    try:
        import inspect  # only on errors: ~6 ms of every start otherwise

        bound = inspect.signature(target).bind(*args, **kwargs)
    except Exception:  # no signature, arguments that do not bind, an import system the student's code broke
        return []
    return [k for k, v in bound.arguments.items() if isinstance(v, np.ndarray)][:10]


def _grader_refs(value: Any, depth: int = 0) -> Any:
    """``value`` with each proxy of a grader object (or of a served class's instance) as the ref the grader knows it
    by; the grader checks every ref against the call's own objects (callbacks.answer_frame)."""
    if isinstance(value, worker_proxies.Proxy) and isinstance(ref := value.__dict__.get("_ref"), tuple):
        return protocol.Ref(*ref)
    if type(value) in (tuple, list) and depth < protocol.MAX_DEPTH:
        return type(value)(_grader_refs(x, depth + 1) for x in value)
    return value


def writable(value: Any) -> Any:
    """Copies of received arrays that student code may modify (the grader keeps its own)."""
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, (tuple, list)):
        return type(value)(writable(x) for x in value)
    return value


def main(argv: list[str]) -> int:
    """Serve the grader on the pipes ``argv[1]`` (requests) and ``argv[2]`` (replies) until it closes them."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past RLIMIT_FSIZE fails instead of killing
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):  # as a forked worker has them (zygote.py), whatever
        signal.signal(sig, signal.SIG_DFL)  # the grader's were: nohup and a background job leave them ignored
    channel = Channel(int(argv[1]), int(argv[2]))
    server = Server(channel)
    sys.meta_path.insert(0, OnlyNumpyAndStdlib())
    with contextlib.suppress(OSError):  # no network, no ptrace...: seccomp.py (a kernel that refuses it: the
        seccomp.install()  # grader's probe of the same kernel, seccomp.unavailable, says so in isolation_layers)
    channel.send({"op": "ready", "pid": os.getpid(), "uid": os.getuid(), "numpy": np.__version__})
    server.serve()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
