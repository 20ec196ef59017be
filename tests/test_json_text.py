"""The archive's JSON text is the standard library's, byte for byte, whatever the values and however often an
object repeats at any depth."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pbem.web.json_text import REUSE_DEPTH, indented_json

CARD = {"id": 7, "segments": [{"edges": "NS", "dead": False}], "label": "Straight \u2028 </script> \"é\"\\"}


def nested(value: Any, depth: int) -> Any:
    for _ in range(depth):
        value = {"in": [value]}
    return value


VALUES = [
    None, True, 0, -1, 10**30, 1.5, -0.0, 1e300, float("nan"), float("inf"), float("-inf"), "", "\x00\x1f\u202e",
    [], {}, [[]], {"a": {}}, (1, (2, [3])),
    {"b": 1, "a": [True, False, None], "c": {"z": "", "y": [{}]}},
    {3: "three", 1: "one"}, {1.5: 0, -2.0: 1}, {True: 1}, {None: 2},
    [CARD, CARD, {"board": [CARD, dict(CARD)]}],
    [nested(CARD, depth) for depth in range(REUSE_DEPTH + 3)] * 2,
    nested([CARD, CARD, [], {}], REUSE_DEPTH + 2),
    {"same": nested({"k": [1, 2]}, REUSE_DEPTH), "other": [nested({"k": [1, 2]}, REUSE_DEPTH - 1)]},
]


@pytest.mark.parametrize("value", VALUES, ids=range(len(VALUES)))
def test_the_text_is_json_dumps_indented_one_space_with_keys_sorted(value: Any) -> None:
    assert indented_json(value) == json.dumps(value, ensure_ascii=False, indent=1, sort_keys=True)


@pytest.mark.parametrize("value", [object(), {"a": {1, 2}}, {(1, 2): 3}, nested({"x": b"bytes"}, REUSE_DEPTH + 1)])
def test_what_json_cannot_hold_is_refused_alike(value: Any) -> None:
    with pytest.raises(TypeError):
        json.dumps(value, ensure_ascii=False, indent=1, sort_keys=True)
    with pytest.raises(TypeError):
        indented_json(value)
