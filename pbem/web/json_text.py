"""JSON text exactly as `json.dumps(value, ensure_ascii=False, indent=1, sort_keys=True)` writes it, faster.

Python 3.11's json module writes indented JSON in pure Python, every piece passed up through one generator per level
of nesting. Here each piece is appended once to one list, and an object or array nested `REUSE_DEPTH` deep or more
that was met before at the same depth (the same card lies on the board in every later snapshot of an archive) is
written once and reused: the C encoder's compact text names it.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring
from typing import Any

# Shallower objects are written afresh: naming each in compact text would cost more than it saves (in an archive,
# the snapshots and their views are each met once; the parts of a view and the cards in them over and over).
REUSE_DEPTH = 4
# The compact text of an object or array, keys sorted: equal texts mean equal indented texts at the same depth.
_compact = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode
_FLOAT_WORDS = {float("inf"): "Infinity", float("-inf"): "-Infinity"}


def indented_json(value: Any) -> str:
    """`json.dumps(value, ensure_ascii=False, indent=1, sort_keys=True)`, byte for byte."""
    parts: list[str] = []
    _Writer(parts).value(value, 0)
    return "".join(parts)


class _Writer:
    def __init__(self, parts: list[str]) -> None:
        self.parts = parts
        self.written: dict[tuple[int, str], str] = {}
        self.breaks: list[str] = ["\n"]

    def newline(self, level: int) -> str:
        while len(self.breaks) <= level:
            self.breaks.append("\n" + " " * len(self.breaks))
        return self.breaks[level]

    def value(self, value: Any, level: int) -> None:
        if isinstance(value, (dict, list, tuple)):
            self.container(value, level)
        else:
            self.parts.append(_scalar(value))

    def container(self, value: dict[Any, Any] | list[Any] | tuple[Any, ...], level: int) -> None:
        if not value:
            self.parts.append("{}" if isinstance(value, dict) else "[]")
            return
        if level < REUSE_DEPTH:
            self.fill(value, level)
            return
        key = (level, _compact(value))
        text = self.written.get(key)
        if text is None:
            outer = self.parts
            self.parts = []
            self.fill(value, level)
            text = self.written[key] = "".join(self.parts)
            self.parts = outer
        self.parts.append(text)

    def fill(self, value: dict[Any, Any] | list[Any] | tuple[Any, ...], level: int) -> None:
        inner = self.newline(level + 1)
        between = "," + inner
        parts = self.parts
        if isinstance(value, dict):
            parts.append("{" + inner)
            for number, (name, item) in enumerate(sorted(value.items())):
                if number:
                    parts.append(between)
                parts.append(encode_basestring(_key(name)) + ": ")
                if isinstance(item, (dict, list, tuple)):
                    self.container(item, level + 1)
                else:
                    parts.append(_scalar(item))
            parts.append(self.newline(level) + "}")
        else:
            parts.append("[" + inner)
            for number, item in enumerate(value):
                if number:
                    parts.append(between)
                if isinstance(item, (dict, list, tuple)):
                    self.container(item, level + 1)
                else:
                    parts.append(_scalar(item))
            parts.append(self.newline(level) + "]")


def _scalar(value: Any) -> str:
    if isinstance(value, str):
        return encode_basestring(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        return _float(value)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    return _FLOAT_WORDS.get(value) or float.__repr__(value)


def _key(name: Any) -> str:
    if isinstance(name, str):
        return name
    if isinstance(name, float):
        return _float(name)
    if name is True:
        return "true"
    if name is False:
        return "false"
    if name is None:
        return "null"
    if isinstance(name, int):
        return int.__repr__(name)
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(name).__name__}")
