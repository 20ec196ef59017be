"""A round's secret deal as a plain record, and the exact bytes a commitment to it is computed over.

The server seals each deal before anyone plays (SHA-256 of these bytes, with a random salt inside) and
reveals salt and record when the round is over, so every player can check that nothing was changed on
the way. The encoding is defined here, beside the rules, so it never drifts from what a deal is; it is
plain enough to reproduce by hand (see docs/fairness.md).

What the record holds (all of it hidden while the round is played):

- `round`, `variant`, `players` (names in seating order) and `first` (the seat that plays first);
- `roles` (the role of each seat, in seat order) and `spare_roles` (the role cards nobody was dealt; in
  Saboteur 2 the leftover dwarf cards, the last one being the next taken by Swap Your Hats);
- `goals`: the face-down goals from top to bottom, `{"x", "y", "card", "gold"}`;
- `hands`: each seat's cards as dealt, in seat order; `draw_pile`: the rest of the shuffled deck, the
  next card drawn last; `set_aside`: Saboteur 2's cards set aside unseen for the round (empty otherwise).

Cards are the variant's card ids (docs/engine.md, "Cards"). The base game's nugget cards are not part of
the deal: they are shuffled at the deal, but the order in which they come out tells who received which
values, and those stay secret until the game ends.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any

from .state import PLAY, Game
from .text import goal_place, role_name
from .variants import VARIANTS, variant_of, with_deck

FORMAT = "saboteur-deal-1"
SALT_KEY = "salt"


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


def sealed_bytes(record: dict[str, Any], salt: str) -> bytes:
    """The record with the salt added under "salt", as compact JSON with sorted keys, in UTF-8.

    Compact: no spaces after ',' or ':'; no line break at the end; characters beyond ASCII written as
    themselves (not as \\u escapes). These are the bytes `sha256sum` must be given.
    """
    if SALT_KEY in record:
        raise ValueError("the record already holds a salt")
    document = {**record, SALT_KEY: salt}
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def commitment(record: dict[str, Any], salt: str) -> str:
    """SHA-256 of the sealed bytes, as 64 lowercase hex digits."""
    return hashlib.sha256(sealed_bytes(record, salt)).hexdigest()


def readable_deal(record: dict[str, Any], options: dict[str, Any] | None = None) -> dict[str, Any]:
    """The same deal in words, for pages and emails: role names, card labels, the draw pile next card first.

    `options` are the game's (a host's own deck names its cards differently).
    """
    deck = (options or {}).get("deck")
    v = VARIANTS[record["variant"]] if deck is None else with_deck(record["variant"], deck)

    def labels(cards: list[int]) -> list[str]:
        return [v.cards[card].label for card in cards]

    return {
        "seats": [
            {"name": name, "role": role_name(role), "hand": labels(hand)}
            for name, role, hand in zip(record["players"], record["roles"], record["hands"])
        ],
        "first": record["players"][record["first"]],
        "spare_roles": [role_name(role) for role in record["spare_roles"]],
        "goals": [{"place": goal_place(goal), "gold": goal["gold"]} for goal in record["goals"]],
        "draw_pile": labels(list(reversed(record["draw_pile"]))),
        "set_aside": labels(record["set_aside"]),
    }
