"""Legal moves as a player reads them: a sentence for each, grouped under the card that makes it.

The engine decides what is legal (`legal_moves`); this module only names those moves and reads a posted
one back. A posted move is the exact JSON of a listed move; the service (and the engine behind it) judges
it again, so a forged or outdated value is refused there with the engine's own explanation.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict

from werkzeug.datastructures import MultiDict

import engine
from pbem.errors import ValidationError
from pbem.web.params import required_int
from pbem.words.places import GOAL_PLACES

MAX_MOVE_LENGTH = 1000
UNREADABLE_CHOICE = "That choice could not be read. Pick one of your moves and try again."


class ChoiceJson(TypedDict):
    """A choice as state.json gives it to the page's script."""

    move: engine.Move
    label: str
    value: str


@dataclass(frozen=True)
class Choice:
    move: engine.Move
    label: str
    value: str  # what the form posts

    def as_json(self) -> ChoiceJson:
        return {"move": self.move, "label": self.label, "value": self.value}


@dataclass(frozen=True)
class MoveGroup:
    """The moves one card allows (or the gold cards on offer, or a thief's choices), in the engine's order.

    `kind` says how the page lists them: "card" and "gold" and "steal" as buttons, one per move; "pass" and
    "clear" (Saboteur 2, where a pass discards one to three cards and two discards remove a card in front of
    you) as a small form of checkboxes, since their moves are the combinations of a few cards.
    """

    title: str
    card: engine.CardInfo | None
    choices: list[Choice] = field(default_factory=list)
    kind: str = "card"
    cards: list[engine.CardInfo] = field(default_factory=list)  # "pass"/"clear": hand cards to tick
    removable: list[engine.CardInfo] = field(default_factory=list)  # "clear": cards in front of you
    most: int = 1  # "pass": the most cards one pass discards


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
        return dict(zip(goals, GOAL_PLACES, strict=False))
    return {cell: f"goal at ({cell[0]}, {cell[1]})" for cell in goals}


def describe_move(move: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """One sentence for a move, in the words of the table the seat sees."""
    you = view.get("you") or {}
    hand = {card["id"]: card for card in you.get("hand", [])}
    kind = move.get("type")
    if kind == "pick_gold":
        value = move.get("value")
        return f"Keep a gold card worth {value} nugget{'s' if value != 1 else ''}"
    if kind == "steal":
        target = move.get("target")
        return "Let the Theft go: steal nothing" if target is None else f"Steal 1 gold piece from {_name(view, target)}"
    if kind in ("pass", "clear"):
        cards = [hand.get(card, {}).get("label", "a card") for card in move.get("cards", [])]
        listed = join_words(cards) or "card"
        if kind == "pass":
            return f"Pass: discard your {listed}, face down"
        removed = _front_card(view, you.get("seat"), move.get("remove"))
        return f"Discard your {listed} to remove the {removed} in front of you"
    card = hand.get(move.get("card"), {})
    label = card.get("label", "card")
    effect = card.get("effect")
    if effect in TARGET_WORDS and "target" in move:
        return _on_seat(effect, move["target"], view)
    if effect == "theft":
        return "Lay your Theft in front of you: after the payout you may steal 1 gold piece"
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


# Saboteur 2's actions on a seat: the words for another seat, and for your own.
TARGET_WORDS = {
    "hands_off": ("Hands Off: remove {name}'s Theft", "Hands Off: remove your own Theft"),
    "swap_hand": ("Swap hands with {name} (they then draw a card)", "Swap hands with yourself"),
    "inspection": ("Look at {name}'s dwarf card", "Look at your own dwarf card"),
    "swap_hats": ("Make {name} swap their dwarf card for a leftover one",
                  "Swap your own dwarf card for a leftover one"),
    "trapped": ("Trap {name}: no path cards, no share of the gold", "Trap yourself"),
    "free": ("Free {name}: remove their Trapped!", "Free yourself: remove your Trapped!"),
}


def _on_seat(effect: str, target: Any, view: Mapping[str, Any]) -> str:
    other, own = TARGET_WORDS[effect]
    return own if target == (view.get("you") or {}).get("seat") else other.format(name=_name(view, target))


def _front_card(view: Mapping[str, Any], seat: Any, card_id: Any) -> str:
    """The label of a card lying in front of `seat` (the view lists each seat's `front`)."""
    for row in view.get("seats", []):
        if row.get("seat") == seat:
            for card in row.get("front", []):
                if card.get("id") == card_id:
                    return str(card.get("label", "card"))
    return "card"


def join_words(words: Sequence[str]) -> str:
    """'Ann', 'Ann and Ben', 'Ann, Ben and Cat' ('' for none)."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def choices(legal_moves: Sequence[engine.Move], view: Mapping[str, Any]) -> list[Choice]:
    return [Choice(move.copy(), describe_move(move, view), encode_move(move)) for move in legal_moves]


def group_moves(legal_moves: Sequence[engine.Move], view: Mapping[str, Any]) -> list[MoveGroup]:
    """Moves under the card that makes them, in hand order; gold picks and a thief's choices in a group of
    their own; passes of several cards and two-card discards as two small forms after the cards."""
    you = view.get("you") or {}
    hand = list(you.get("hand", []))
    groups = {card["id"]: MoveGroup(title=card["label"], card=card) for card in hand}
    gold = MoveGroup(title="Choose a gold card", card=None, kind="gold")
    steal = MoveGroup(title="Your Theft: steal 1 gold piece, or let it go", card=None, kind="steal")
    listed = choices(legal_moves, view)
    passes = [c for c in listed if c.move.get("type") == "pass"]
    most = max((len(c.move.get("cards", [])) for c in passes), default=0)
    passing = MoveGroup(title=f"Pass: discard 1 to {most} cards, face down", card=None, kind="pass", most=most)
    clearing = MoveGroup(title="Discard 2 cards to remove a card lying in front of you", card=None, kind="clear")
    for choice in listed:
        move = choice.move
        kind = move.get("type")
        if kind == "pick_gold":
            gold.choices.append(choice)
        elif kind == "steal":
            steal.choices.append(choice)
        elif kind == "clear":
            clearing.choices.append(choice)
        elif kind == "pass" and most > 1:
            passing.choices.append(choice)
        else:
            cards = move.get("cards")
            card = move.get("card", cards[0] if cards else None)
            if card in groups:
                groups[card].choices.append(choice)
    for composed in (passing, clearing):
        ticked = {card for choice in composed.choices for card in choice.move.get("cards", [])}
        composed.cards.extend(card for card in hand if card["id"] in ticked)
    removable = {choice.move.get("remove") for choice in clearing.choices}
    own: Mapping[str, Any] = next((row for row in view.get("seats", []) if row.get("seat") == you.get("seat")), {})
    clearing.removable.extend(card for card in own.get("front", []) if card.get("id") in removable)
    return [group for group in [gold, steal, *groups.values(), passing, clearing] if group.choices]


def compose_move(form: MultiDict[str, str]) -> engine.Move | None:
    """A pass or a two-card discard ticked in the page's small forms (without JavaScript), as a move.

    None when the form names no such move. Only the shape is built here; whether it is legal is the engine's
    to say, like any posted move.
    """
    kind = form.get("compose")
    if kind not in ("pass", "clear"):
        return None
    cards = sorted(_whole_numbers(form.getlist(f"{kind}_cards")))
    if kind == "pass":
        if not cards:
            raise ValidationError("Tick the cards you want to discard, then press Pass.")
        return {"type": "pass", "cards": cards}
    remove = _whole_numbers([form.get("clear_remove", "")])
    if len(cards) != 2 or not remove:
        raise ValidationError("Tick two cards to discard and the card to remove, then press the button.")
    return {"type": "clear", "cards": cards, "remove": remove[0]}


def _whole_numbers(raw: Sequence[Any]) -> list[int]:
    return [required_int(str(value), UNREADABLE_CHOICE) for value in raw]


def _name(view: Mapping[str, Any], seat: Any) -> str:
    players = view.get("players", [])
    return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else "someone"
