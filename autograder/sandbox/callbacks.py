"""The grader-side objects student code calls back into: those a homework declares, and served stand-ins.

A homework declares its objects as ``GraderObject`` subclasses (the attention homework's layer and cache, in its
``diagnosis/objects.py``): the worker gets a proxy built from the class's declared interface (``interface``), and
every method or property it offers comes back over the protocol and runs here, so what the object holds never
reaches the student's process and the grader counts (and records) every call. Each declares its own bounds, so a
submission cannot make the grader compute or store without limit; ``Served`` stands in for some of the student's
own functions and classes during one probe.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np


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


class Served:
    """Correct stand-ins for some of the student's functions and classes during one probe call
    (``Student.call_served``).

    ``functions`` maps each served name to the grader's own implementation (the homework's oracle), or, for a
    class, to the ``GraderObject`` subclass whose instances stand for the student's (the attention homework's
    correct cache for its KVCache). The worker calls back with ``(args, [[keyword, value], ...])``; a served
    class's instances are kept here and called back as ``Name.method`` with their index first. Its answers
    exist only for the call it is passed to: a stand-in that student code keeps and calls later refers to an
    earlier call's object and gets an error.
    """

    def __init__(self, functions: dict[str, Any]) -> None:
        self.functions = dict(functions)
        self.names = list(self.functions)
        self.classes = {name: made for name, made in self.functions.items()
                        if isinstance(made, type) and issubclass(made, GraderObject)}
        self.instances: list[GraderObject] = []
        self.calls = 0
        self.used: dict[str, int] = {}  # answers given, by served name (an object's methods count for its class)

    def serve(self, method: str, args: tuple) -> Any:
        self.calls += 1
        name = method.split(".", 1)[0]
        if name in self.functions:
            self.used[name] = self.used.get(name, 0) + 1
        if self.calls > MAX_SERVED:
            raise CallbackLimit(f"more than {MAX_SERVED:,} calls of the functions served in a probe")
        if len(args) != 2 or not isinstance(args[0], list) or not isinstance(args[1], list):
            raise TypeError("bad arguments")
        positional, keywords = args
        if method in self.classes:
            self.instances.append(self.classes[method]())
            return len(self.instances) - 1
        if name in self.classes and "." in method and positional and type(positional[0]) is int:
            index = positional[0]
            if not 0 <= index < len(self.instances) or not isinstance(self.instances[index], self.classes[name]):
                raise ValueError(f"unknown {name} object")
            return self.instances[index].serve(method.split(".", 1)[1], tuple(positional[1:]))
        function = self.functions.get(method)
        if function is None or not all(isinstance(kw, list) and len(kw) == 2 and isinstance(kw[0], str)
                                       for kw in keywords):
            raise TypeError(f"{method}() is not served here")
        try:
            with np.errstate(all="ignore"):
                return function(*positional, **dict(keywords))
        except Exception as e:  # a call the contract does not allow: the student's code gets the error
            raise ValueError(f"{method}(): {type(e).__name__}: {e}") from None

