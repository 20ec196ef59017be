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
from pbem.i18n import gettext, lazy_gettext, ngettext
from pbem.web.params import required_int
from pbem.words.cards import card_name, tool_name
from pbem.words.counting import and_list
from pbem.words.places import GOAL_PLACES
from pbem.words.table import N_

MAX_MOVE_LENGTH = 1000
UNREADABLE_CHOICE = N_("That choice could not be read. Pick one of your moves and try again.")


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
        raise ValidationError(gettext("No move was chosen. Pick one of your moves and try again."))
    try:
        move = json.loads(raw)
    except ValueError:
        raise ValidationError(gettext("That move could not be read. Pick one of your moves and try again.")) from None
    if not isinstance(move, dict):
        raise ValidationError(gettext("That move could not be read. Pick one of your moves and try again."))
    return move


def goal_names(view: Mapping[str, Any]) -> dict[tuple[int, int], str]:
    """'top', 'middle', 'bottom' for the usual three goals, else their cells."""
    goals = sorted(((goal["x"], goal["y"]) for goal in view["goals"]), key=lambda cell: (-cell[1], cell[0]))
    if len(goals) == len(GOAL_PLACES):
        return dict(zip(goals, GOAL_PLACES, strict=False))
    return {cell: gettext("goal at (%(x)s, %(y)s)", x=cell[0], y=cell[1]) for cell in goals}


def describe_move(move: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """One sentence for a move, in the words of the table the seat sees, in the reader's language."""
    you = view.get("you") or {}
    hand = {card["id"]: card for card in you.get("hand", [])}
    kind = move.get("type")
    if kind == "pick_gold":
        value = move.get("value")
        count = value if isinstance(value, int) else 0
        return ngettext("Keep a gold card worth %(value)s nugget", "Keep a gold card worth %(value)s nuggets", count,
                        value=value)
    if kind == "steal":
        target = move.get("target")
        if target is None:
            return gettext("Let the Theft go: steal nothing")
        return gettext("Steal 1 gold piece from %(name)s", name=_name(view, target))
    if kind in ("pass", "clear"):
        cards = [_card_label(hand.get(card)) for card in move.get("cards", [])]
        listed = join_words(cards) or gettext("card")
        if kind == "pass":
            return gettext("Pass: discard your %(cards)s, face down", cards=listed)
        removed = _front_card(view, you.get("seat"), move.get("remove"))
        return gettext("Discard your %(cards)s to remove the %(card)s in front of you", cards=listed, card=removed)
    card = hand.get(move.get("card"), {})
    label = card_name(card) if card.get("label") else gettext("card")
    effect = card.get("effect")
    if effect in TARGET_WORDS and "target" in move:
        return _on_seat(effect, move["target"], view)
    if effect == "theft":
        return gettext("Lay your Theft in front of you: after the payout you may steal 1 gold piece")
    if "target" in move:
        return _on_tool(move, card, view)
    cell = (move.get("x"), move.get("y"))
    if card.get("effect") == "map":
        goal = goal_names(view).get(cell) or gettext("goal")  # type: ignore[arg-type]
        return gettext("Look at the %(place)s goal with your map", place=goal)
    if card.get("effect") == "rockfall":
        lying: Mapping[str, Any] = next((c for c in view["board"] if (c["x"], c["y"]) == cell), {})
        return gettext("Rockfall: remove the %(card)s at (%(x)s, %(y)s)", card=_card_label(lying), x=cell[0], y=cell[1])
    if move.get("rotated"):
        return gettext("Build the %(card)s at (%(x)s, %(y)s), turned around", card=label, x=cell[0], y=cell[1])
    return gettext("Build the %(card)s at (%(x)s, %(y)s)", card=label, x=cell[0], y=cell[1])


def _on_tool(move: Mapping[str, Any], card: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """Break or repair a player's tool: yours or another's."""
    target = move["target"]
    own = target == (view.get("you") or {}).get("seat")
    raw = move.get("tool") or (card.get("tools") or [None])[0]
    tool = tool_name(raw) if raw else gettext("tool")
    if card.get("effect") == "repair":
        if own:
            return gettext("Repair your own %(tool)s", tool=tool)
        return gettext("Repair %(name)s's %(tool)s", name=_name(view, target), tool=tool)
    if own:
        return gettext("Break your own %(tool)s", tool=tool)
    return gettext("Break %(name)s's %(tool)s", name=_name(view, target), tool=tool)


def _card_label(card: Mapping[str, Any] | None) -> str:
    """A card's printed name, in the reader's language ("a card" for one not found)."""
    return card_name(card) if card and card.get("label") else gettext("a card")


# Saboteur 2's actions on a seat: the words for another seat, and for your own.
TARGET_WORDS = {
    "hands_off": (N_("Hands Off: remove %(name)s's Theft"), N_("Hands Off: remove your own Theft")),
    "swap_hand": (N_("Swap hands with %(name)s (they then draw a card)"), N_("Swap hands with yourself")),
    "inspection": (N_("Look at %(name)s's dwarf card"), N_("Look at your own dwarf card")),
    "swap_hats": (N_("Make %(name)s swap their dwarf card for a leftover one"),
                  N_("Swap your own dwarf card for a leftover one")),
    "trapped": (N_("Trap %(name)s: no path cards, no share of the gold"), N_("Trap yourself")),
    "free": (N_("Free %(name)s: remove their Trapped!"), N_("Free yourself: remove your Trapped!")),
}


def _on_seat(effect: str, target: Any, view: Mapping[str, Any]) -> str:
    other, own = TARGET_WORDS[effect]
    if target == (view.get("you") or {}).get("seat"):
        return gettext(own)
    return gettext(other, name=_name(view, target))


def _front_card(view: Mapping[str, Any], seat: Any, card_id: Any) -> str:
    """The label of a card lying in front of `seat` (the view lists each seat's `front`)."""
    for row in view.get("seats", []):
        if row.get("seat") == seat:
            for card in row.get("front", []):
                if card.get("id") == card_id:
                    return card_name(card) if card.get("label") else gettext("card")
    return gettext("card")


def join_words(words: Sequence[str]) -> str:
    """'Ann', 'Ann and Ben', 'Ann, Ben and Cat' ('' for none), in the reader's language."""
    return and_list(list(words))


def choices(legal_moves: Sequence[engine.Move], view: Mapping[str, Any]) -> list[Choice]:
    return [Choice(move.copy(), describe_move(move, view), encode_move(move)) for move in legal_moves]


def group_moves(legal_moves: Sequence[engine.Move], view: Mapping[str, Any]) -> list[MoveGroup]:
    """Moves under the card that makes them, in hand order; gold picks and a thief's choices in a group of
    their own; passes of several cards and two-card discards as two small forms after the cards."""
    you = view.get("you") or {}
    hand = list(you.get("hand", []))
    groups = {card["id"]: MoveGroup(title=card_name(card), card=card) for card in hand}
    gold = MoveGroup(title=gettext("Choose a gold card"), card=None, kind="gold")
    steal = MoveGroup(title=gettext("Your Theft: steal 1 gold piece, or let it go"), card=None, kind="steal")
    listed = choices(legal_moves, view)
    passes = [c for c in listed if c.move.get("type") == "pass"]
    most = max((len(c.move.get("cards", [])) for c in passes), default=0)
    passing = MoveGroup(title=gettext("Pass: discard 1 to %(most)s cards, face down", most=most), card=None,
                        kind="pass", most=most)
    clearing = MoveGroup(title=gettext("Discard 2 cards to remove a card lying in front of you"), card=None,
                         kind="clear")
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
            raise ValidationError(gettext("Tick the cards you want to discard, then press Pass."))
        return {"type": "pass", "cards": cards}
    remove = _whole_numbers([form.get("clear_remove", "")])
    if len(cards) != 2 or not remove:
        raise ValidationError(gettext("Tick two cards to discard and the card to remove, then press the button."))
    return {"type": "clear", "cards": cards, "remove": remove[0]}


def _whole_numbers(raw: Sequence[Any]) -> list[int]:
    return [required_int(str(value), lazy_gettext(UNREADABLE_CHOICE)) for value in raw]


def _name(view: Mapping[str, Any], seat: Any) -> str:
    players = view.get("players", [])
    return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else gettext("someone")
