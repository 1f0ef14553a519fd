"""The grader-side objects student code calls back into: those a homework declares, and served stand-ins.

A homework declares its objects as ``GraderObject`` subclasses (the attention homework's layer and cache, in its
``diagnosis/objects.py``): the worker gets a proxy built from the class's declared interface (``interface``), and
every method or property it offers comes back over the protocol and runs here, so what the object holds never
reaches the student's process and the grader counts (and records) every call. Each declares its own bounds, so a
submission cannot make the grader compute or store without limit; ``Served`` stands in for some of the student's
own functions and classes during one probe.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

import numpy as np

from autograder.sandbox import protocol


class CallbackLimit(Exception):  # noqa: N818 - a limit reached, not a fault of the grader
    """A bound of the grader-side objects was reached; ``str(e)`` is a sentence for the student. The call that
    reached it is stopped (its worker restarted, so no reply is ever read as another request's answer)."""


class GraderObject:
    """A grader-side object the student's code gets as a proxy. A subclass declares its interface:

    ``NAME``        how the student's code and the messages name it ("layer")
    ``METHODS``     method -> how many arguments it takes
    ``VECTOR``      methods of one float vector, sent as compact frames (protocol.py); at most 255
    ``PROPERTIES``  attributes it answers
    ``LENGTH``      whether ``len(obj)`` works
    ``OFFERS``      the sentence an AttributeError ends with: what it offers ("layer.query(x), ...")

    and implements each method and property; ``serve`` dispatches a callback to them.
    """

    NAME: ClassVar[str] = "object"
    METHODS: ClassVar[dict[str, int]] = {}
    VECTOR: ClassVar[tuple[str, ...]] = ()
    PROPERTIES: ClassVar[tuple[str, ...]] = ()
    LENGTH: ClassVar[bool] = False
    OFFERS: ClassVar[str] = ""

    @classmethod
    def interface(cls) -> dict[str, Any]:
        """What the worker builds its proxy from (plain JSON)."""
        return {"name": cls.NAME, "methods": dict(cls.METHODS), "vector": list(cls.VECTOR),
                "properties": list(cls.PROPERTIES), "len": cls.LENGTH, "offers": cls.OFFERS}

    def held(self) -> list[Any]:
        """The arrays it holds (its weights, its rows): what a probe called with it may need (``Bounds``)."""
        return []

    @classmethod
    def bounded(cls, bounds: Bounds) -> GraderObject:
        """A new one served for a student's class in a probe, within ``bounds`` (what the probed case needs)."""
        return cls()

    def serve(self, method: str | int, args: tuple) -> Any:
        """Run the callback ``method`` (a name, or a compact frame's index into ``VECTOR``) with ``args``."""
        if type(method) is int and 0 <= method < len(self.VECTOR):
            method = self.VECTOR[method]
        if method in self.PROPERTIES and not args:
            return getattr(self, str(method))
        if method == "len" and self.LENGTH and not args:
            return len(self)  # type: ignore[arg-type]
        if method in self.METHODS and len(args) == self.METHODS[str(method)]:
            return getattr(self, str(method))(*args)
        raise TypeError(f"{self.NAME}.{method}() is not available: {self.OFFERS}")


def real_array(x: Any, what: str) -> np.ndarray:
    """``x`` as an array of real numbers (a list or number too); TypeError naming ``what`` otherwise."""
    try:
        array = np.array(x, dtype=float) if isinstance(x, (list, tuple, int, float)) else np.array(x)
    except (TypeError, ValueError):
        array = np.array(None)
    if array.dtype.kind not in "iuf":
        raise TypeError(f"{what} must be an array of real numbers")
    return array


MAX_SERVED = 2_000  # answers of one Served (a probe re-runs one case: the graded cases need a few dozen)
MAX_SERVED_OBJECTS = 64  # served objects of one Served (a probe of generate_cached makes one cache)
MAX_NDIM = 6  # axes of an array a served stand-in takes
AXIS_FLOOR, ELEMENT_FLOOR = 16, 4096  # the least a probe's bounds allow (a tiny case still leaves room)


class Bounds:
    """What one probe needs: the longest axis and the number of elements of its arguments. Served stand-ins take
    arrays of at most ``ndim`` axes, each at most ``axis`` long, ``elements`` in all per call, and answer at most
    ``answer`` elements: the grader never computes, holds or sends more than the probed case needs."""

    def __init__(self, axis: int = 0, elements: int = 0) -> None:
        self.axis = max(2 * axis, AXIS_FLOOR)
        self.elements = max(4 * elements, ELEMENT_FLOOR)
        self.answer = self.elements * self.axis  # e.g. (n, d) queries and keys give (n, n) scores

    @classmethod
    def of(cls, values: Any) -> Bounds:
        """The bounds of a probe called with ``values`` (arrays, numbers, grader objects, nested in tuples)."""
        sizes = list(_sizes(values))
        return cls(max((axis for _, axis, _ in sizes), default=1), sum(n for _, _, n in sizes))

    def check(self, values: Any, what: str) -> None:
        """ValueError (the student's call raises it) unless every array (or list) in ``values`` is within these
        bounds."""
        sizes = list(_sizes(values))
        if any(ndim > MAX_NDIM or axis > self.axis for ndim, axis, _ in sizes):
            raise ValueError(f"{what}: an argument is larger than this case needs (at most {MAX_NDIM} axes of at "
                             f"most {self.axis})")
        if sum(n for _, _, n in sizes) > self.elements:
            raise ValueError(f"{what}: more than {self.elements:,} numbers in one call, more than this case needs")

    def check_answer(self, value: Any, what: str) -> None:
        if sum(n for _, _, n in _sizes(value)) > self.answer:
            raise ValueError(f"{what}: its answer would hold more than {self.answer:,} numbers, more than this "
                             "case needs")


class Served:
    """Correct stand-ins for some of the student's functions and classes during one probe call
    (``Student.call_served``).

    ``functions`` maps each served name to the grader's own implementation (the homework's oracle), or, for a
    class, to the ``GraderObject`` subclass whose instances stand for the student's (the attention homework's
    correct cache for its KVCache). The worker calls back with ``(args, [[keyword, value], ...])``; a served
    class's instances are kept here and called back as ``Name.method`` with their index first. Its answers
    exist only for the call it is passed to: a stand-in that student code keeps and calls later refers to an
    earlier call's object and gets an error.

    Bounded like every grader object: ``bound`` (from the probed call's arguments, ``Student.call_served``)
    limits what each stand-in takes and answers; at most ``allowance`` answers and ``MAX_SERVED_OBJECTS`` objects
    (each within the bounds: ``GraderObject.bounded``). Whatever fails here is raised in the student's call
    (``Student._callback``).
    """

    def __init__(self, functions: dict[str, Any]) -> None:
        self.functions = dict(functions)
        self.names = list(self.functions)
        self.classes = {name: made for name, made in self.functions.items()
                        if isinstance(made, type) and issubclass(made, GraderObject)}
        self.instances: list[GraderObject] = []
        self.log: dict[int, list[tuple[str, tuple, Any]]] = {}  # by instance: (method or property, args, answer)
        self.calls = 0
        self.used: dict[str, int] = {}  # answers given, by served name (an object's methods count for its class)
        self.bounds = Bounds()
        self.allowance = MAX_SERVED  # answers this Served may give (``Student`` lowers it to the grading's rest)

    def bound(self, values: Any) -> None:
        """Widen the bounds to what a probe called with ``values`` needs (a stateful probe makes several calls)."""
        more = Bounds.of(values)
        self.bounds.axis, self.bounds.elements = max(self.bounds.axis, more.axis), max(self.bounds.elements,
                                                                                         more.elements)
        self.bounds.answer = max(self.bounds.answer, more.answer)

    def note(self, index: int, method: str, args: tuple, value: Any) -> None:
        """Log a call of served instance ``index`` (from the student's code or a stand-in given it), in order: what
        the student's own class would have been asked (``callees``' replay)."""
        calls = self.log.setdefault(index, [])
        if len(calls) < MAX_SERVED:
            calls.append((method, args, value))

    def serve(self, method: str, args: tuple) -> Any:
        self.calls += 1
        name = method.split(".", 1)[0]
        if name in self.functions:
            self.used[name] = self.used.get(name, 0) + 1
        if self.calls > min(self.allowance, MAX_SERVED):
            raise CallbackLimit(f"more than {min(self.allowance, MAX_SERVED):,} calls of the functions served in "
                                "a probe")
        if len(args) != 2 or not isinstance(args[0], list) or not isinstance(args[1], list):
            raise TypeError("bad arguments")
        positional, keywords = args
        self.bounds.check((positional, keywords), f"{method}()")
        if method in self.classes:
            if len(self.instances) >= MAX_SERVED_OBJECTS:
                raise ValueError(f"{method}(): at most {MAX_SERVED_OBJECTS} objects in one call")
            self.instances.append(self.classes[method].bounded(self.bounds))
            return len(self.instances) - 1
        if name in self.classes and "." in method and positional and type(positional[0]) is int:
            index = positional[0]
            if not 0 <= index < len(self.instances) or not isinstance(self.instances[index], self.classes[name]):
                raise ValueError(f"unknown {name} object")
            value = self.instances[index].serve(method.split(".", 1)[1], tuple(positional[1:]))
            self.note(index, method.split(".", 1)[1], tuple(positional[1:]), value)
            return value
        function = self.functions.get(method)
        if function is None or not all(isinstance(kw, list) and len(kw) == 2 and isinstance(kw[0], str)
                                       for kw in keywords):
            raise TypeError(f"{method}() is not served here")
        try:
            with np.errstate(all="ignore"):
                value = function(*positional, **dict(keywords))
        except Exception as e:  # a call the contract does not allow: the student's code gets the error
            raise ValueError(f"{method}(): {type(e).__name__}: {e}") from None
        self.bounds.check_answer(value, f"{method}()")
        return value


def _sizes(value: Any, depth: int = 0) -> Iterator[tuple[int, int, int]]:
    """(axes, longest axis, numbers) of each array, list and number in ``value`` (nested in tuples, lists and
    dicts; what a grader object holds: ``GraderObject.held``). A list counts its length as an axis, its items
    apart."""
    if isinstance(value, np.ndarray):
        yield value.ndim, max(value.shape, default=1), value.size
    elif isinstance(value, (tuple, list)):
        yield 1, len(value), 0
        for item in value if depth < 40 else ():
            yield from _sizes(item, depth + 1)
    elif isinstance(value, dict):
        yield from _sizes(list(value.values()), depth + 1)
    elif isinstance(value, GraderObject):
        yield from _sizes(list(value.held()))
    else:
        yield 0, 1, 1


def answer_frame(reply: dict, arrays: list, refs: list) -> bytes:
    """The frame answering a worker's callback ``reply``: a method of a grader object (or a served stand-in) in
    ``refs`` run here on the student's arguments.

    A limit reached (CallbackLimit) is raised: the worker, left waiting for an answer, is then killed, so no later
    reply is read as this one's. Any other failure to compute or encode the answer (the student's arguments, an
    answer too large to send) is an error frame raised in the student's call, never the grader's error."""
    ident, kind = reply.get("ref"), reply.get("kind")
    try:  # a malformed argument tree is the student's call's error (the frame itself was read whole)
        args = protocol.decode(reply.get("args"), arrays, allow_refs=kind == "served")
        expected = Served if kind == "served" else GraderObject if kind == "object" else None
        if type(ident) is not int or not 0 <= ident < len(refs) or expected is None \
                or not isinstance(refs[ident], expected):
            raise ValueError("this object is no longer valid (it belongs to an earlier call)")
        if kind == "served":
            args = _resolved(args, refs, refs[ident])
        if not isinstance(args, tuple):
            raise TypeError("bad arguments")
        method = reply.get("method")
        value = refs[ident].serve(method if type(method) is int else str(method), args)
        # a compact callback (protocol.py) gets a compact reply when the value fits one
        frame = protocol.pack_projection(protocol.REPLY, 0, value) if reply.get("compact") else None
        if frame is None:
            tree, out = protocol.encode(value)
            frame = protocol.pack_frame({"op": "reply", "value": tree}, out)
    except CallbackLimit:
        raise
    except Exception as e:  # decoding the student's arguments, computing or encoding an answer: their call raises it
        kind = "TypeError" if isinstance(e, TypeError) else "ValueError"
        message = str(e) if isinstance(e, (TypeError, ValueError)) else f"{type(e).__name__}: {e}"
        frame = protocol.pack_frame({"op": "reply_error", "type": kind, "message": message[:2000]})
    return frame


def _resolved(value: Any, refs: list, served: Served, depth: int = 0) -> Any:
    """A served stand-in's arguments with each ref as the grader object it names: one passed to this call
    (``refs``), or an instance of a class served in it; nothing else (an object of the student's own stays in their
    process, so a stand-in cannot be given it)."""
    if isinstance(value, protocol.Ref):
        if value.kind == "object" and 0 <= value.id < len(refs) and isinstance(refs[value.id], GraderObject):
            return refs[value.id]
        if value.kind == "instance" and 0 <= value.id < len(served.instances):
            return _Logged(served, value.id)
        raise TypeError("a served stand-in takes arrays, numbers and the grader's own objects, not an object of your "
                        "code's")
    if type(value) in (tuple, list) and depth < protocol.MAX_DEPTH:
        return type(value)(_resolved(x, refs, served, depth + 1) for x in value)
    return value


class _Logged:
    """A served class's instance as a stand-in is given it: its methods, properties and ``len`` work as the
    instance's, and each use is logged (``Served.note``)."""

    def __init__(self, served: Served, index: int) -> None:
        self._served, self._index = served, index

    def __getattr__(self, name: str) -> Any:
        instance = self._served.instances[self._index]
        if name in type(instance).METHODS:
            method = getattr(instance, name)

            def logged(*args: Any) -> Any:
                value = method(*args)
                self._served.note(self._index, name, args, value)
                return value

            return logged
        if name in type(instance).PROPERTIES:
            value = getattr(instance, name)
            self._served.note(self._index, name, (), value)
            return value
        raise AttributeError(f"{type(instance).NAME}.{name} is not available: {type(instance).OFFERS}")

    def __len__(self) -> int:
        value = len(self._served.instances[self._index])  # type: ignore[arg-type]
        self._served.note(self._index, "len", (), value)
        return value
