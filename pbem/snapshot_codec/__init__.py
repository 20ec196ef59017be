"""How a snapshot's state, move and events are stored: the one home of their encoding.

Each column holds a payload of its own that decodes alone (no payload refers to another row). Its first byte
names the format and the preset dictionary or vocabulary it was written with; a dictionary or vocabulary, once
released, never changes, so an old payload always decodes (new formats take new tag bytes).

Tag 8, a whole engine state (`engine.Game.to_dict()` of schema 2), written now: one mixed-radix integer and
nothing else. The facts that are numbers from small ranges (where each card lies, each card as its rank among
the cards not yet written, the boards' cells, roles, nuggets, the generator and the seed) take as many bits as
they need; the players' names are spelled (a capital first); options and round results' details are typed values
(below). A state of another shape is stored as tag 3, failing that as tag 2, so whatever JSON document the engine
gives is kept exactly.

Tag 9, a move or an event list as a typed value of vocabulary 4: each value its type, then its number, its word
or its parts; a word, and a dict's list of keys, by its place in the vocabulary if it is there (else spelled); a
value a template's key usually holds as one bit; a dict whose other values are of the kinds the vocabulary
expects for their keys, and a list of items of one kind, without their types. Values it cannot hold (floats) are
stored as tag 2.

Written until now, still read: tags 6 and 7 (tags 8 and 9 with vocabulary 3: no usual values, names spelled
in one alphabet), tags 5 and 4 (vocabulary 2: every type written, names looked up first); tag 3 (the card facts as
in tag 8, the rest compact JSON deflated with the state dictionary 1) and tag 1, the first release (tag 3 with
every count below WIDE).

Tag 2, compact JSON deflated with dictionary 1 of its column (state, move or events).

The dictionaries and vocabularies live in `pbem/snapshot_dictionaries/<version>/` and are built from bot games by
`bench/train_snapshot_dictionary.py`.
"""

from __future__ import annotations

import json
from typing import Any

from pbem.snapshot_codec.dictionaries import compact, deflate, inflate
from pbem.snapshot_codec.states import pack_state, unpack_state
from pbem.snapshot_codec.tags import (
    JSON_V1,
    KINDS,
    PACKED_STATE,
    PACKED_STATE_V1,
    TYPED_JSON,
    TYPED_JSONS,
    WHOLE_STATE,
    WHOLE_STATES,
    CorruptPayload,
    Unfit,
)
from pbem.snapshot_codec.training import training_texts
from pbem.snapshot_codec.values import pack_value, unpack_value, value_kind

__all__ = [
    "JSON_V1", "KINDS", "PACKED_STATE", "PACKED_STATE_V1", "TYPED_JSON", "TYPED_JSONS", "WHOLE_STATE", "WHOLE_STATES",
    "CorruptPayload", "decode", "encode", "pack_state", "pack_value", "training_texts", "value_kind",
]


def encode(kind: str, value: Any) -> bytes:
    """The payload stored for `value` in column `kind` ("state", "move" or "events")."""
    forms = (WHOLE_STATE, PACKED_STATE) if kind == "state" else (TYPED_JSON,)
    for form in forms:
        try:
            if form == TYPED_JSON:
                return bytes((form,)) + pack_value(value, form)
            return bytes((form,)) + pack_state(value, form)
        except Unfit:
            pass
    return bytes((JSON_V1,)) + deflate(compact(value), kind)


def decode(kind: str, payload: bytes | memoryview) -> Any:
    """The value `encode(kind, value)` was given, from its payload."""
    data = bytes(payload)
    if not data:
        raise CorruptPayload(f"an empty {kind} payload")
    tag = data[0]
    if tag == JSON_V1:
        return json.loads(inflate(data[1:], kind))
    try:
        if tag in (*WHOLE_STATES, PACKED_STATE, PACKED_STATE_V1) and kind == "state":
            return unpack_state(data[1:], tag)
        if tag in TYPED_JSONS and kind != "state":
            return unpack_value(data[1:], tag)
    except (IndexError, KeyError, ValueError, ZeroDivisionError, OverflowError) as error:
        if isinstance(error, CorruptPayload):
            raise
        raise CorruptPayload(f"the {kind} payload does not read: {error!r}") from error
    raise CorruptPayload(f"unknown {kind} payload tag {tag}")
