"""Hypothesis strategies derived from the protocol models themselves, so every message
type (and every field a model gains later) is generated without a hand-written list."""

from __future__ import annotations

import functools
import random
import types
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import annotated_types as at
from hypothesis import strategies as st
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from protocol.messages import PRINTABLE_PATTERN
from shared.game import Game
from shared.options import Options

INT64 = (-(2**63), 2**63 - 1)
_PRINTABLE = st.characters(blacklist_categories=("Cs", "Cc"))


def _flatten(meta: list[Any]) -> list[Any]:
    out: list[Any] = []
    for m in meta:
        if isinstance(m, FieldInfo):
            out.extend(_flatten(list(m.metadata)))
        else:
            out.append(m)
    return out


def _bound(meta: list[Any], kind: type, attr: str, default: Any) -> Any:
    for m in meta:
        if isinstance(m, kind):
            return getattr(m, attr)
    return default


def _pattern(meta: list[Any]) -> str | None:
    for m in meta:
        p = getattr(m, "pattern", None)
        if isinstance(p, str):
            return p
    return None


def for_type(tp: Any, meta: list[Any] | None = None) -> st.SearchStrategy[Any]:
    """Valid values of annotation ``tp`` with pydantic/annotated-types ``meta``."""
    meta = _flatten(meta or [])
    origin = get_origin(tp)
    if origin is Annotated:
        base, *extra = get_args(tp)
        return for_type(base, meta + list(extra))
    if origin is Literal:
        return st.sampled_from(get_args(tp))
    if origin in (Union, types.UnionType):
        return st.one_of([for_type(a, meta if a is not type(None) else []) for a in get_args(tp)])
    if tp is type(None):
        return st.none()
    if origin is tuple:
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            hi = _bound(meta, at.MaxLen, "max_length", 4)
            return st.lists(for_type(args[0]), max_size=min(hi, 4)).map(tuple)
        return st.tuples(*(for_type(a) for a in args))
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return for_model(tp)
    if tp is bool:
        return st.booleans()
    if tp is int:
        lo = _bound(meta, at.Ge, "ge", INT64[0])
        hi = _bound(meta, at.Le, "le", INT64[1])
        return st.integers(lo, hi)
    if tp is float:
        return st.floats(allow_nan=False, allow_infinity=False)
    if tp is str:
        lo = _bound(meta, at.MinLen, "min_length", 0)
        hi = _bound(meta, at.MaxLen, "max_length", 40)
        pattern = _pattern(meta)
        if pattern is None or pattern == PRINTABLE_PATTERN:
            return st.text(_PRINTABLE, min_size=lo, max_size=hi)
        if pattern.endswith("]+$"):  # a character class: bound it in the regex itself
            pattern = f"{pattern[:-2]}{{{max(lo, 1)},{hi}}}$"
        return st.from_regex(pattern, fullmatch=True).filter(lambda s: lo <= len(s) <= hi)
    raise TypeError(f"no strategy for {tp!r}")


@functools.cache
def for_model(model: type[BaseModel]) -> st.SearchStrategy[Any]:
    """Valid instances of ``model``: every field drawn from its own annotation (made once
    per model: the tests draw it in every example)."""
    fields = {
        name: for_type(info.annotation, list(info.metadata))
        for name, info in model.model_fields.items()
    }
    return st.fixed_dictionaries(fields).map(model.model_validate)


def played(players: int, seed: int, plies: int | None = None, **opts: Any) -> Game:
    """A game dealt from ``seed`` and played at random for ``plies`` takes (or to the
    end when None)."""
    game = Game.deal(Options(players=players, seed=seed, **opts))
    rnd = random.Random(seed)
    while not game.over and (plies is None or game.ply < plies):
        game.apply(rnd.choice(game.legal_actions()))
    return game
