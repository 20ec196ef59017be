"""Legal moves as a player reads them: a sentence for each, grouped under the card that makes it.

The engine decides what is legal (`legal_moves`); this module only names those moves and reads a posted
one back. A posted move is the exact JSON of a listed move; the service (and the engine behind it) judges
it again, so a forged or outdated value is refused there with the engine's own explanation.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.errors import ValidationError

MAX_MOVE_LENGTH = 1000
GOAL_PLACES = ("top", "middle", "bottom")


@dataclass(frozen=True)
class Choice:
    move: dict[str, Any]
    label: str
    value: str  # what the form posts

    def as_json(self) -> dict[str, Any]:
        return {"move": self.move, "label": self.label, "value": self.value}


@dataclass(frozen=True)
class MoveGroup:
    """The moves one card allows (or the gold cards on offer), in the engine's order."""

    title: str
    card: dict[str, Any] | None
    choices: list[Choice] = field(default_factory=list)


def encode_move(move: Mapping[str, Any]) -> str:
    return json.dumps(move, sort_keys=True, separators=(",", ":"))


def parse_move(raw: str | None) -> dict[str, Any]:
    """The move a form or script posted; ValidationError when it is not a JSON object."""
    if not raw or len(raw) > MAX_MOVE_LENGTH:
        raise ValidationError("No move was chosen. Pick one of your moves and try again.")
    try:
        move = json.loads(raw)
    except ValueError:
        raise ValidationError("That move could not be read. Pick one of your moves and try again.") from None
    if not isinstance(move, dict):
        raise ValidationError("That move could not be read. Pick one of your moves and try again.")
    return move


def goal_names(view: Mapping[str, Any]) -> dict[tuple[int, int], str]:
    """'top', 'middle', 'bottom' for the usual three goals, else their cells."""
    goals = sorted(((goal["x"], goal["y"]) for goal in view["goals"]), key=lambda cell: (-cell[1], cell[0]))
    if len(goals) == len(GOAL_PLACES):
        return dict(zip(goals, GOAL_PLACES))
    return {cell: f"goal at ({cell[0]}, {cell[1]})" for cell in goals}


def describe_move(move: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """One sentence for a move, in the words of the table the seat sees."""
    you = view.get("you") or {}
    hand = {card["id"]: card for card in you.get("hand", [])}
    if move.get("type") == "pick_gold":
        value = move.get("value")
        return f"Keep a gold card worth {value} nugget{'s' if value != 1 else ''}"
    if move.get("type") == "pass":
        cards = [hand.get(card, {}).get("label", "a card") for card in move.get("cards", [])]
        return f"Pass: discard your {' and '.join(cards) or 'card'}, face down"
    card = hand.get(move.get("card"), {})
    label = card.get("label", "card")
    if "target" in move:
        target = move["target"]
        whose = "your own" if target == you.get("seat") else f"{_name(view, target)}'s"
        tool = move.get("tool") or (card.get("tools") or ["tool"])[0]
        verb = "Repair" if card.get("effect") == "repair" else "Break"
        return f"{verb} {whose} {tool}"
    cell = (move.get("x"), move.get("y"))
    if card.get("effect") == "map":
        goal = goal_names(view).get(cell, "goal")  # type: ignore[arg-type]
        return f"Look at the {goal} goal with your map"
    if card.get("effect") == "rockfall":
        lying: Mapping[str, Any] = next((c for c in view["board"] if (c["x"], c["y"]) == cell), {})
        return f"Rockfall: remove the {lying.get('label', 'card')} at ({cell[0]}, {cell[1]})"
    turned = ", turned around" if move.get("rotated") else ""
    return f"Build the {label} at ({cell[0]}, {cell[1]}){turned}"


def choices(legal_moves: Sequence[Mapping[str, Any]], view: Mapping[str, Any]) -> list[Choice]:
    return [Choice(dict(move), describe_move(move, view), encode_move(move)) for move in legal_moves]


def group_moves(legal_moves: Sequence[Mapping[str, Any]], view: Mapping[str, Any]) -> list[MoveGroup]:
    """Moves under the card that makes them, in hand order; gold picks in a group of their own."""
    you = view.get("you") or {}
    groups = {card["id"]: MoveGroup(title=card["label"], card=card) for card in you.get("hand", [])}
    gold = MoveGroup(title="Choose a gold card", card=None)
    for choice in choices(legal_moves, view):
        move = choice.move
        if move.get("type") == "pick_gold":
            gold.choices.append(choice)
            continue
        card = move.get("card", (move.get("cards") or [None])[0])
        if card in groups:
            groups[card].choices.append(choice)
    return [group for group in [gold, *groups.values()] if group.choices]


def _name(view: Mapping[str, Any], seat: Any) -> str:
    players = view.get("players", [])
    return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else "someone"
