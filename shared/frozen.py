"""Quicker construction for the immutable records made on every take (events, views,
scores, the server's seat facts).

A frozen dataclass's ``__init__`` stores each field with ``object.__setattr__`` (its
own ``__setattr__`` refuses). ``quick`` gives a frozen dataclass with slots an
``__init__`` that stores each field through its slot's descriptor instead, which takes
half the time (``bench/take.py``) and makes the same object: the same fields in the
same slots, the same defaults, still frozen afterwards. tests/shared/test_frozen.py
holds every class it is used on to the dataclass's own ``__init__``.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

__all__ = ["QUICK", "quick"]

T = TypeVar("T", bound=type)

QUICK: dict[type, Any] = {}
"""Every class ``quick`` was used on, with the ``__init__`` the dataclass made for it
(so that a test can compare the two)."""


def quick(cls: T) -> T:
    """Replace the ``__init__`` of ``cls``, a frozen dataclass with slots (apply it
    above ``@dataclass``), by one storing each field through its slot. Fields keep
    their defaults; a class with a ``__post_init__`` or a ``default_factory`` is refused
    (its ``__init__`` does more than store)."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__}: quick needs a frozen dataclass with slots")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: quick cannot run a __post_init__")
    env: dict[str, Any] = {}
    args, body = ["self"], []
    for i, f in enumerate(dataclasses.fields(cls)):
        if not f.init or f.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{f.name}: quick stores given values only")
        if f.default is dataclasses.MISSING:
            args.append(f.name)
        else:
            env[f"d{i}"] = f.default
            args.append(f"{f.name}=d{i}")
        env[f"s{i}"] = getattr(cls, f.name).__set__  # the slot's descriptor
        body.append(f"    s{i}(self, {f.name})")
    source = f"def __init__({', '.join(args)}):\n" + ("\n".join(body) or "    pass")
    exec(source, env)  # our own code, generated from the fields
    init = env["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    QUICK[cls] = vars(cls)["__init__"]  # the dataclass's own
    cls.__init__ = init  # type: ignore[misc]
    return cls
