"""A round's secret deal as a plain record, sealed part by part so that it can be opened selectively.

The server seals each deal before anyone plays and opens it when the round is over; the encoding lives here,
beside the rules, so it never drifts from what a deal is. The record, the parts (`deal_parts`), their salts and
digests, what stays withheld (`withheld_parts`) and the older whole-record format are in docs/fairness.md.
"""
from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from .reveal import private_moves_open
from .state import PLAY, Game
from .variants import variant_of

FORMAT = "saboteur-deal-2"
WHOLE_FORMAT = "saboteur-deal-1"  # sealed whole, opened whole: seals stored before parts existed
SALT_KEY = "salt"
TABLE_KEYS = ("round", "variant", "players", "first")


def deal_record(g: Game) -> dict[str, Any]:
    """The secret deal of the current round; valid right after the deal, before the first move."""
    if g.phase != PLAY or g.turn is None:
        raise ValueError("a deal record is taken right after a round is dealt")
    v = variant_of(g)
    return {
        "format": FORMAT,
        "round": g.round,
        "variant": g.variant,
        "players": list(g.players),
        "first": g.turn,
        "roles": list(g.roles),
        "spare_roles": list(g.spare_roles),
        "goals": [
            {"x": x, "y": y, "card": g.hidden_goals[(x, y)], "gold": v.cards[g.hidden_goals[(x, y)]].gold}
            for x, y in v.goal_cells
        ],
        "hands": [list(hand) for hand in g.hands],
        "draw_pile": list(g.draw_pile),
        "set_aside": list(g.removed),
    }


def sealed_whole(record: dict[str, Any]) -> bool:
    """Whether a record is of the first format, sealed and opened as one piece."""
    return record.get("format") == WHOLE_FORMAT


def canonical(document: Any) -> bytes:
    """Compact JSON with sorted keys, in UTF-8: no spaces, no line break at the end, characters beyond ASCII
    written as themselves (not as \\u escapes)."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def sealed_bytes(record: dict[str, Any], salt: str) -> bytes:
    """A `saboteur-deal-1` seal: the record with the salt added under "salt", as `canonical` bytes."""
    if SALT_KEY in record:
        raise ValueError("the record already holds a salt")
    return canonical({**record, SALT_KEY: salt})


# The parts of a deal, in the order their digests are committed to.

def part_names(seats: int, goals: int = 3) -> list[str]:
    """The parts' names, in the fixed order of the commitment, for a table of `seats` seats."""
    return [
        "table", *(f"role/{seat}" for seat in range(seats)), "spare_roles", *(f"goal/{i}" for i in range(goals)),
        *(f"hand/{seat}" for seat in range(seats)), "draw_pile", "set_aside",
    ]


def deal_parts(record: dict[str, Any]) -> list[tuple[str, Any]]:
    """The record cut into named parts, in the fixed order of the commitment."""
    values = [
        {key: record[key] for key in TABLE_KEYS}, *record["roles"], record["spare_roles"], *record["goals"],
        *record["hands"], record["draw_pile"], record["set_aside"],
    ]
    return list(zip(part_names(len(record["players"]), len(record["goals"])), values, strict=True))


def part_salt(salt: str, name: str) -> str:
    """A part's own salt: HMAC-SHA-256 of its name under the round's secret salt, as 64 hex digits."""
    return hmac.new(bytes.fromhex(salt), name.encode("utf-8"), hashlib.sha256).hexdigest()


def part_bytes(name: str, value: Any, salt: str) -> bytes:
    """What a part's digest is computed over: `{"part": name, "salt": its salt, "value": value}`, canonical."""
    return canonical({"part": name, "salt": salt, "value": value})


def digests_text(digests: Sequence[str]) -> bytes:
    """What the commitment is computed over: each part's digest in order, 64 hex digits and a line break."""
    return "".join(f"{digest}\n" for digest in digests).encode("ascii")


def commitment(record: dict[str, Any], salt: str) -> str:
    """The round's fingerprint, as 64 lowercase hex digits."""
    if sealed_whole(record):
        return hashlib.sha256(sealed_bytes(record, salt)).hexdigest()
    return opened_commitment(opening(record, salt))


# Opening a deal: every part that may be shown, only the digest of the others.

def opening(record: dict[str, Any], salt: str, withheld: Collection[str] = ()) -> dict[str, Any]:
    """The published opening of a `saboteur-deal-2` seal: `{"format", "parts": [...]}`, each part in order either
    `{"part", "salt", "value"}` (shown) or `{"part", "digest"}` (withheld)."""
    parts = deal_parts(record)
    unknown = set(withheld) - {name for name, _ in parts}
    if unknown:
        raise ValueError(f"no such parts of a deal: {sorted(unknown)}")
    shown: list[dict[str, Any]] = []
    for name, value in parts:
        own = part_salt(salt, name)
        if name in withheld:
            shown.append({"part": name, "digest": hashlib.sha256(part_bytes(name, value, own)).hexdigest()})
        else:
            shown.append({"part": name, "salt": own, "value": value})
    return {"format": FORMAT, "parts": shown}


def opening_text(opened: dict[str, Any]) -> str:
    """The opening as published: valid JSON laid out one part per line, each line (without its comma) exactly
    the bytes of that part's digest for a shown part, so `sha256sum` can check it line by line."""
    lines = ",\n".join(canonical(part).decode("utf-8") for part in opened["parts"])
    return f'{{"format":"{opened["format"]}","parts":[\n{lines}\n]}}'


def opened_digests(opened: dict[str, Any]) -> list[str]:
    """Each part's digest: computed from a shown part, as published for a withheld one."""
    return [
        part["digest"] if "digest" in part
        else hashlib.sha256(part_bytes(part["part"], part["value"], part["salt"])).hexdigest()
        for part in opened["parts"]
    ]


def opened_commitment(opened: dict[str, Any]) -> str:
    """The fingerprint an opening gives: what anyone compares with the one published at the deal."""
    return hashlib.sha256(digests_text(opened_digests(opened))).hexdigest()


def shown_record(opened: dict[str, Any]) -> dict[str, Any]:
    """The deal as an opening shows it: the record's keys, None in place of each withheld part."""
    values = {part["part"]: part.get("value") for part in opened["parts"]}
    table = values["table"]
    seats = range(len(table["players"]))
    goals = sorted((name for name in values if name.startswith("goal/")), key=lambda name: int(name[5:]))
    return {
        "format": opened["format"],
        **{key: table[key] for key in TABLE_KEYS},
        "roles": [values[f"role/{seat}"] for seat in seats],
        "spare_roles": values["spare_roles"],
        "goals": [values[name] for name in goals],
        "hands": [values[f"hand/{seat}"] for seat in seats],
        "draw_pile": values["draw_pile"],
        "set_aside": values["set_aside"],
    }


def withheld_parts(
    record: dict[str, Any], round_events: Sequence[Mapping[str, Any]], options: dict[str, Any]
) -> frozenset[str]:
    """The parts of a round's deal nobody may be shown once the round is over, from the round's events (every
    audience) and the game's options:

    - the dwarf card of each seat that gave its card up to Swap Your Hats (discarded "without showing it to
      anyone"), and then the leftover dwarf cards too: they would give that card away by elimination;
    - with option `recap_private_moves` off, what the printed rules never turn over: the hands as dealt and the
      draw pile (they tell what went face down and what each player drew), the cards set aside, and each goal
      nobody reached (what a map showed). The roles and the goals turned over stay shown, as the table saw them.
    """
    if sealed_whole(record):
        raise ValueError("a saboteur-deal-1 seal is opened whole")
    seats = range(len(record["players"]))
    swapped = {event["seat"] for event in round_events if event.get("type") == "role_changed"}
    withheld = {f"role/{seat}" for seat in swapped}
    if swapped:
        withheld.add("spare_roles")
    if not private_moves_open(options):
        reached = {(event["x"], event["y"]) for event in round_events if event.get("type") == "goal_revealed"}
        withheld |= {f"hand/{seat}" for seat in seats} | {"draw_pile", "set_aside"}
        withheld |= {f"goal/{i}" for i, goal in enumerate(record["goals"]) if (goal["x"], goal["y"]) not in reached}
    return frozenset(withheld)
