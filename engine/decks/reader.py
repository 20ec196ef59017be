"""Reading a deck description: checked strictly, then turned into card types.

A deck is plain data (a Python literal shipped with the engine, or a host's TOML file); the format is in
docs/engine.md, "Deck format". A bad deck is refused with a sentence naming the entry and what is wrong.
"""
from __future__ import annotations

import re
from typing import Any

from ..cards import TOOLS, CardType, Segment
from ..errors import InvalidSetup
from ..geometry import mask_from_letters

DOOR_COLOURS = ("blue", "green")
EFFECTS = ("break", "repair", "rockfall", "map", "theft", "hands_off", "swap_hand", "inspection", "swap_hats",
           "trapped", "free")
RESERVED_NAMES = ("start", "gold", "stone_se", "stone_sw")
NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")
MAX_COUNT = 20
MAX_CRYSTALS = 4

PATH_KEYS = {"name", "label", "count", "segments", "crystals"}
ACTION_KEYS = {"name", "label", "count", "effect", "tools"}
SEGMENT_KEYS = {"edges", "dead", "door", "ladder"}


def read_deck(spec: Any) -> tuple[CardType, ...]:
    """The path cards then the action cards of `spec`, one `CardType` per physical card."""
    if not isinstance(spec, dict) or set(spec) != {"paths", "actions"}:
        raise InvalidSetup("A deck must have exactly two lists: 'paths' and 'actions'")
    names: set[str] = set()
    cards: list[CardType] = []
    for section, keys, read in (("paths", PATH_KEYS, _path), ("actions", ACTION_KEYS, _action)):
        entries = spec[section]
        if not isinstance(entries, list) or not entries:
            raise InvalidSetup(f"The deck's '{section}' must be a non-empty list of cards")
        for position, entry in enumerate(entries, 1):
            where = f"{section} entry {position}"
            _table(entry, keys, where, "a table of fields")
            name = entry.get("name")
            if not isinstance(name, str) or not NAME.fullmatch(name):
                raise InvalidSetup(f"Deck {where} needs a 'name' of lower-case letters, digits and _")
            where = f"{section} entry {position} ({name})"
            if name in names or name in RESERVED_NAMES:
                raise InvalidSetup(f"Deck {where}: the name is already taken")
            names.add(name)
            label = entry.get("label")
            if not isinstance(label, str) or not label.strip() or len(label) > 40:
                raise InvalidSetup(f"Deck {where} needs a 'label' of 1 to 40 characters")
            count = entry.get("count")
            if type(count) is not int or not 1 <= count <= MAX_COUNT:
                raise InvalidSetup(f"Deck {where}: 'count' must be a whole number from 1 to {MAX_COUNT}")
            card = read(entry, where)
            cards.extend([card] * count)
    return tuple(cards)


def _path(entry: dict[str, Any], where: str) -> CardType:
    segments = entry.get("segments")
    if not isinstance(segments, list) or not 1 <= len(segments) <= 4:
        raise InvalidSetup(f"Deck {where}: 'segments' must list 1 to 4 tunnels")
    built = tuple(_segment(s, f"{where}, segment {i}") for i, s in enumerate(segments, 1))
    used = 0
    for segment in built:
        if used & segment.edges:
            raise InvalidSetup(f"Deck {where}: two segments share an edge; an edge belongs to one tunnel")
        used |= segment.edges
    crystals = entry.get("crystals", 0)
    if type(crystals) is not int or not 0 <= crystals <= MAX_CRYSTALS:
        raise InvalidSetup(f"Deck {where}: 'crystals' must be a whole number from 0 to {MAX_CRYSTALS}")
    return CardType(entry["name"], "path", entry["label"].strip(), built, crystals=crystals)


def _table(spec: Any, keys: set[str], where: str, shape: str) -> None:
    """A table (dict) whose fields are all among `keys`."""
    if not isinstance(spec, dict):
        raise InvalidSetup(f"Deck {where} must be {shape}")
    unknown = sorted(str(k) for k in spec if k not in keys)
    if unknown:
        raise InvalidSetup(f"Deck {where} has an unknown field '{unknown[0]}'")


def _segment(spec: Any, where: str) -> Segment:
    _table(spec, SEGMENT_KEYS, where, "a table such as {edges = \"NS\"}")
    edges = spec.get("edges")
    if not isinstance(edges, str) or not edges or set(edges) - set("NESW") or len(set(edges)) != len(edges):
        raise InvalidSetup(f"Deck {where}: 'edges' must be distinct letters from N, E, S, W")
    dead = spec.get("dead", False)
    ladder = spec.get("ladder", False)
    door = spec.get("door")
    if type(dead) is not bool or type(ladder) is not bool:
        raise InvalidSetup(f"Deck {where}: 'dead' and 'ladder' must be true or false")
    if door is not None and door not in DOOR_COLOURS:
        raise InvalidSetup(f"Deck {where}: 'door' must be \"blue\" or \"green\"")
    if dead and (len(edges) != 1 or ladder or door):
        raise InvalidSetup(f"Deck {where}: a dead-end stub has one edge and no door or ladder")
    if ladder and door:
        raise InvalidSetup(f"Deck {where}: a segment cannot have both a ladder and a door")
    return Segment(mask_from_letters(edges), dead=dead, door=door, ladder=ladder)


def _action(entry: dict[str, Any], where: str) -> CardType:
    effect = entry.get("effect")
    if effect not in EFFECTS:
        raise InvalidSetup(f"Deck {where}: 'effect' must be one of {', '.join(EFFECTS)}")
    tools = entry.get("tools", [])
    wanted = {"break": (1,), "repair": (1, 2)}.get(effect, (0,))
    if (not isinstance(tools, list) or len(tools) not in wanted or len(set(map(str, tools))) != len(tools)
            or any(t not in TOOLS for t in tools)):
        counts = " or ".join(str(n) for n in wanted) + (" tool" if wanted == (1,) else " distinct tools")
        raise InvalidSetup(f"Deck {where}: a {effect} card names {counts} from {', '.join(TOOLS)}")
    return CardType(entry["name"], "action", entry["label"].strip(), effect=effect, tools=tuple(tools))
