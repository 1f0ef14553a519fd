"""Runs INSIDE the sandbox, beside worker.py: the grader's objects as the student's code sees them. A proxy
class is made from each object's declared interface (callbacks.GraderObject on the grader's side); every method,
property and ``len`` is a callback to the grader. A served stand-in (a probe's dependency) is a function, or a
class making such proxies, whose answers the grader computes. Standard library only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Proxy:
    """A grader object in the student's code (its class is made from the object's declared interface, ``proxy_class``):
    every method, property and ``len`` is a callback to the grader."""

    _offers = ""
    _name = "object"

    def __init__(self, call: Callable[..., Any], ref: tuple[str, int] | None = None) -> None:
        self._call = call
        self._ref = ref  # (kind, id): how a served stand-in given this object names it to the grader

    def __getattr__(self, name: str) -> Any:  # only for names the interface lacks (e.g. layer.W_Q)
        if name.startswith("__"):
            raise AttributeError(name)
        raise AttributeError(f"{self._name}.{name} is not part of its interface; {self._offers}")


_PROXY_CLASSES: dict[str, type] = {}


def proxy_class(interface: Any) -> type:
    """The proxy class of a declared interface (callbacks.GraderObject.interface), made once per interface."""
    if not isinstance(interface, dict):
        raise ValueError("bad object interface")
    key = repr(sorted((str(k), repr(v)) for k, v in interface.items()))
    known = _PROXY_CLASSES.get(key)
    if known is not None:
        return known
    name = str(interface.get("name", "object"))
    methods, vector = interface.get("methods") or {}, list(interface.get("vector") or [])
    members: dict[str, Any] = {"_name": name, "_offers": str(interface.get("offers", ""))}

    def method(called: str) -> Callable[..., Any]:
        index = vector.index(called) if called in vector else None

        def run(self: Proxy, *args: Any) -> Any:
            return self._call(called, args, index)

        run.__name__ = called
        return run

    for called in methods if isinstance(methods, dict) else ():
        if str(called).isidentifier() and not str(called).startswith("_"):
            members[str(called)] = method(str(called))
    for attr in interface.get("properties") or ():
        if str(attr).isidentifier() and not str(attr).startswith("_"):
            members[str(attr)] = property(lambda self, attr=str(attr): self._call(attr, (), None))
    if interface.get("len"):
        members["__len__"] = lambda self: self._call("len", (), None)
    made = type(f"{name}_proxy", (Proxy,), members)
    if len(_PROXY_CLASSES) < 64:
        _PROXY_CLASSES[key] = made
    return made


def served_stand_in(callback: Callable[..., Any], ident: int, name: str, interface: Any = None) -> Callable[..., Any]:
    """A stand-in for the student's ``name`` whose answers the grader computes (a probe's served dependency); a
    served class (``interface``: its declared interface) makes grader objects, called back as ``name.method``."""

    def served(*args: Any, **kwargs: Any) -> Any:
        if interface is not None:
            index = callback("served", ident, name, ([], []))
            return proxy_class(interface)(lambda method, margs, _: callback(
                "served", ident, f"{name}.{method}", ([index, *margs], [])), ("instance", index))
        return callback("served", ident, name, (list(args), [[k, v] for k, v in kwargs.items()]))

    served.__name__ = served.__qualname__ = name
    return served
