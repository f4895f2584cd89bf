"""One set of names: the protocol's option and event values are the engine's, and one
converter goes between ``shared.options.Options`` and ``TableOptions``."""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import typing

import pytest

from protocol import messages as m
from protocol.convert import options_from_shared, options_to_shared
from shared.cards import THIRD_COLOURS
from shared.events import EXPLODED_TO, Exploded
from shared.options import MEMORY_MODES, START_CARD_MODES, Options


def test_table_options_have_the_engines_fields() -> None:
    assert list(m.TableOptions.model_fields) == [f.name for f in dataclasses.fields(Options)]


def test_literal_values_are_the_engines_constants() -> None:
    fields = m.TableOptions.model_fields
    assert typing.get_args(fields["start_card"].annotation) == START_CARD_MODES
    assert typing.get_args(fields["memory"].annotation) == MEMORY_MODES
    assert typing.get_args(fields["third_colour"].annotation) == THIRD_COLOURS
    to = m.ExplodedEvent.model_fields["to"].annotation
    assert typing.get_args(to) == EXPLODED_TO
    assert typing.get_type_hints(Exploded)["to"] == to


@pytest.mark.parametrize(
    "values",
    list(itertools.product((2, 3), (False, True), START_CARD_MODES, MEMORY_MODES, THIRD_COLOURS)),
)
def test_options_convert_both_ways(values: tuple[object, ...]) -> None:
    names = ("players", "recipes", "start_card", "memory", "third_colour")
    options = Options(**dict(zip(names, values, strict=True)), seed=77)  # type: ignore[arg-type]
    public = options_from_shared(options)
    assert public.seed is None  # never sent
    assert options_to_shared(public) == options.replace(seed=None)
    request = options_from_shared(options, seed=True)
    assert options_to_shared(request) == options
    assert options_from_shared(options.to_dict(public=True)) == public  # the record form


def test_the_old_client_error_name_still_works() -> None:
    import client.lib as lib

    with pytest.warns(DeprecationWarning):
        old = lib.IllegalMove  # type: ignore[attr-defined]
    assert old is lib.IllegalMoveError and "IllegalMove" not in lib.__all__


def test_options_from_command_line_arguments() -> None:
    args = argparse.Namespace(players=3, recipes=True, memory="casual", name="ann", seed=None)
    assert Options.from_args(args) == Options(players=3, recipes=True, memory="casual")
