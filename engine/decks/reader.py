"""Reading a deck description: checked strictly, then turned into card types.

A deck is plain data (a Python literal shipped with the engine, or a host's TOML file); the format is in
docs/engine.md, "Deck format". A bad deck is refused with a code and where: the section, the entry (counted
from 1), its name once known and the segment, for the host's page to say in words.
"""
from __future__ import annotations

import re
from typing import Any

from ..cards import TOOLS, CardType, Segment
from ..errors import InvalidSetup
from ..geometry import mask_from_letters

Where = dict[str, Any]  # the params that place a refusal: section, entry, name, segment

DOOR_COLOURS = ("blue", "green")
EFFECTS = ("break", "repair", "rockfall", "map", "theft", "hands_off", "swap_hand", "inspection", "swap_hats",
           "trapped", "free")
RESERVED_NAMES = ("start", "gold", "stone_se", "stone_sw")
NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")
MAX_COUNT = 20
MAX_CRYSTALS = 4
MAX_LABEL = 40

PATH_KEYS = {"name", "label", "count", "segments", "crystals"}
ACTION_KEYS = {"name", "label", "count", "effect", "tools"}
SEGMENT_KEYS = {"edges", "dead", "door", "ladder"}


def read_deck(spec: Any) -> tuple[CardType, ...]:
    """The path cards then the action cards of `spec`, one `CardType` per physical card."""
    if not isinstance(spec, dict) or set(spec) != {"paths", "actions"}:
        raise InvalidSetup("deck_lists")
    names: set[str] = set()
    cards: list[CardType] = []
    for section, keys, read in (("paths", PATH_KEYS, _path), ("actions", ACTION_KEYS, _action)):
        entries = spec[section]
        if not isinstance(entries, list) or not entries:
            raise InvalidSetup("deck_section_empty", section=section)
        for position, entry in enumerate(entries, 1):
            where: Where = {"section": section, "entry": position}
            _table(entry, keys, where)
            name = entry.get("name")
            if not isinstance(name, str) or not NAME.fullmatch(name):
                raise InvalidSetup("deck_name", **where)
            where = {**where, "name": name}
            if name in names or name in RESERVED_NAMES:
                raise InvalidSetup("deck_name_taken", **where)
            names.add(name)
            label = entry.get("label")
            if not isinstance(label, str) or not label.strip() or len(label) > MAX_LABEL:
                raise InvalidSetup("deck_label", most=MAX_LABEL, **where)
            count = entry.get("count")
            if type(count) is not int or not 1 <= count <= MAX_COUNT:
                raise InvalidSetup("deck_count", most=MAX_COUNT, **where)
            card = read(entry, where)
            cards.extend([card] * count)
    return tuple(cards)


def _path(entry: dict[str, Any], where: Where) -> CardType:
    segments = entry.get("segments")
    if not isinstance(segments, list) or not 1 <= len(segments) <= 4:
        raise InvalidSetup("deck_segments", **where)
    built = tuple(_segment(s, {**where, "segment": i}) for i, s in enumerate(segments, 1))
    used = 0
    for segment in built:
        if used & segment.edges:
            raise InvalidSetup("deck_shared_edge", **where)
        used |= segment.edges
    crystals = entry.get("crystals", 0)
    if type(crystals) is not int or not 0 <= crystals <= MAX_CRYSTALS:
        raise InvalidSetup("deck_crystals", most=MAX_CRYSTALS, **where)
    return CardType(entry["name"], "path", entry["label"].strip(), built, crystals=crystals)


def _table(spec: Any, keys: set[str], where: Where) -> None:
    """A table (dict) whose fields are all among `keys`."""
    if not isinstance(spec, dict):
        raise InvalidSetup("deck_not_table", **where)
    unknown = sorted(str(k) for k in spec if k not in keys)
    if unknown:
        raise InvalidSetup("deck_unknown_field", field=unknown[0], **where)


def _segment(spec: Any, where: Where) -> Segment:
    _table(spec, SEGMENT_KEYS, where)
    edges = spec.get("edges")
    if not isinstance(edges, str) or not edges or set(edges) - set("NESW") or len(set(edges)) != len(edges):
        raise InvalidSetup("deck_edges", **where)
    dead = spec.get("dead", False)
    ladder = spec.get("ladder", False)
    door = spec.get("door")
    if type(dead) is not bool or type(ladder) is not bool:
        raise InvalidSetup("deck_dead_ladder", **where)
    if door is not None and door not in DOOR_COLOURS:
        raise InvalidSetup("deck_door", colours=list(DOOR_COLOURS), **where)
    if dead and (len(edges) != 1 or ladder or door):
        raise InvalidSetup("deck_stub", **where)
    if ladder and door:
        raise InvalidSetup("deck_ladder_door", **where)
    return Segment(mask_from_letters(edges), dead=dead, door=door, ladder=ladder)


def _action(entry: dict[str, Any], where: Where) -> CardType:
    effect = entry.get("effect")
    if effect not in EFFECTS:
        raise InvalidSetup("deck_effect", effects=list(EFFECTS), **where)
    tools = entry.get("tools", [])
    wanted = {"break": (1,), "repair": (1, 2)}.get(effect, (0,))
    if (not isinstance(tools, list) or len(tools) not in wanted or len(set(map(str, tools))) != len(tools)
            or any(t not in TOOLS for t in tools)):
        raise InvalidSetup("deck_tools", effect=effect, counts=list(wanted), tools=list(TOOLS), **where)
    return CardType(entry["name"], "action", entry["label"].strip(), effect=effect, tools=tuple(tools))
