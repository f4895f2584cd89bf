"""A faster ``__init__`` for the engine's small frozen dataclasses.

A frozen dataclass sets each field in ``__init__`` through ``object.__setattr__`` (the
class's own ``__setattr__`` refuses). The engine makes several such objects per take
(events, views): ``fast_init`` replaces that ``__init__`` with one that stores each
field through its slot's descriptor, about twice as fast, with the same signature. The
objects stay frozen (assigning a field still raises ``FrozenInstanceError``).
"""

from __future__ import annotations

from dataclasses import MISSING, fields, is_dataclass
from typing import Any, TypeVar

__all__ = ["fast_init"]

T = TypeVar("T")


def fast_init(cls: type[T]) -> type[T]:
    """Class decorator, below ``@dataclass(frozen=True, slots=True)``. Only for classes
    whose fields have no defaults and no ``__post_init__`` (checked)."""
    if not is_dataclass(cls) or not hasattr(cls, "__slots__"):
        raise TypeError(f"{cls.__name__}: not a slots dataclass")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: has __post_init__")
    names = []
    env: dict[str, Any] = {}
    for i, f in enumerate(fields(cls)):
        if f.default is not MISSING or f.default_factory is not MISSING:
            raise TypeError(f"{cls.__name__}.{f.name}: has a default")
        names.append(f.name)
        env[f"set{i}"] = _slot(cls, f.name).__set__
    body = "".join(f"    set{i}(self, {name})\n" for i, name in enumerate(names)) or "    pass\n"
    exec(f"def __init__(self, {', '.join(names)}):\n{body}", env)  # our own code
    init = env["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[method-assign]
    return cls


def _slot(cls: type, name: str) -> Any:
    for klass in cls.__mro__:
        if name in klass.__dict__:
            return klass.__dict__[name]
    raise TypeError(f"{cls.__name__}: no slot {name}")
