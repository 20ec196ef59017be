"""The payload formats by their tag byte, the vocabularies they name words by, and the codec's errors."""

from __future__ import annotations

from pathlib import Path

PACKED_STATE_V1 = 1
JSON_V1 = 2
PACKED_STATE = 3
TYPED_JSON_V1 = 4
WHOLE_STATE_V1 = 5
WHOLE_STATE_V2 = 6
TYPED_JSON_V2 = 7
WHOLE_STATE = 8  # what a state of the engine's shape is written as
TYPED_JSON = 9  # what a move or an event list is written as
WHOLE_STATES = (WHOLE_STATE, WHOLE_STATE_V2, WHOLE_STATE_V1)
TYPED_JSONS = (TYPED_JSON, TYPED_JSON_V2, TYPED_JSON_V1)
# The vocabulary each format of typed values names its words by.
VOCABULARIES = {TYPED_JSON_V1: 2, WHOLE_STATE_V1: 2, TYPED_JSON_V2: 3, WHOLE_STATE_V2: 3, TYPED_JSON: 4,
                WHOLE_STATE: 4}
DICTIONARY_VERSION = 1
KINDS = ("state", "move", "events")
DICTIONARIES = Path(__file__).parent.parent / "snapshot_dictionaries"
STATE_SCHEMA = 2
STATE_KEYS = (
    "schema", "variant", "players", "options", "seed", "rng", "round", "phase", "turn", "board", "hidden_goals",
    "roles", "spare_roles", "hands", "draw_pile", "discard", "front", "peeks", "gold_pile", "gold", "offer",
    "last_actor", "last_placed", "results", "removed", "gold_pieces", "discarded_roles", "inspections",
    "theft_order", "stealers", "last_builder",
)
# Part of format 1: a role is written as its place in this tuple.
ROLES = ("digger", "saboteur", "blue_digger", "green_digger", "boss", "profiteer", "geologist")
ROLE_INDEX = {role: index for index, role in enumerate(ROLES)}
# A round result's keys whose values go into the integer (their places stay in the JSON, holding 0).
RESULT_PACKED = ("roles", "spare_roles", "board")
WIDE = 1 << 16  # bound of counts and of the largest card id (format 1)
SHORT = 8  # format 3: bit lengths below SHORT take one digit, longer ones two
SPAN = 128  # board coordinates lie in [-SPAN/2, SPAN/2), a board at most SPAN cells wide and high


class Unfit(ValueError):
    """The value is not of the shape format 1 packs (it is stored as JSON instead)."""


class CorruptPayload(ValueError):
    """A stored payload that no format reads."""
