"""The frozen vocabularies typed values name their words by, and the kinds of value they expect."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any

from pbem.snapshot_codec.tags import DICTIONARIES

NULL, FALSE, TRUE, INT, STR, LIST, DICT = range(7)
TYPES = 7
# What vocabulary 3 expects a template's values to be (a true or a false is a BOOL; the other kinds are types).
BOOL = TRUE
VALUE_KINDS = 7
MOST_ITEMS = 1 << 12  # values in one typed payload at most (a list of nulls at its end costs no bits)
DEEPEST = 32


@dataclass(frozen=True)
class Vocabulary:
    """Words (keys and strings) and templates (a dict's keys in order) a typed value names by their place."""

    words: tuple[str, ...]
    templates: tuple[tuple[str, ...], ...]
    # From vocabulary 3: the kind each template's values are expected to be; a list says whether its items are of
    # one kind; a value of the kind expected is written without its type.
    kinds: tuple[tuple[int, ...], ...] = ()
    # From vocabulary 4: for each template, the value each key usually holds (or NO_USUAL); a value that is its
    # key's usual one is written as one bit.
    usual: tuple[tuple[Any, ...], ...] = ()

    @property
    def typed(self) -> bool:
        return bool(self.kinds)

    @cached_property
    def word_places(self) -> dict[str, int]:
        return {word: place for place, word in enumerate(self.words)}

    @cached_property
    def template_places(self) -> dict[tuple[str, ...], int]:
        return {keys: place for place, keys in enumerate(self.templates)}


NO_WORDS = Vocabulary((), ())
NO_USUAL = object()


def _usual(stored: Any) -> Any:
    """A usual value as vocabulary.json holds it: [] for none, [value] for one."""
    return stored[0] if stored else NO_USUAL


def fresh(usual: Any) -> Any:
    """A usual value to hand out: an empty list or dict of its own (the vocabulary's stays empty)."""
    return type(usual)() if isinstance(usual, list | dict) else usual


def is_usual(value: Any, usual: Any) -> bool:
    """`value` is `usual` exactly (a usual value is a scalar or an empty list or dict: True is not 1)."""
    return usual is not NO_USUAL and type(value) is type(usual) and value == usual


@cache
def vocabulary(version: int) -> Vocabulary:
    """The frozen vocabulary `version` (package data, never changed once released)."""
    data = json.loads((DICTIONARIES / str(version) / "vocabulary.json").read_text("utf-8"))
    return Vocabulary(tuple(data["words"]), tuple(tuple(keys) for keys in data["templates"]),
                      tuple(tuple(kinds) for kinds in data.get("kinds", ())),
                      tuple(tuple(map(_usual, usual)) for usual in data.get("usual", ())))
