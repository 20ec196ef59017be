"""A move's lines for one reader: one line per thing that happened, its private follow-ups told inside the line
of the event that caused them ("You built a Crossing at (3, 0) and drew Map.")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.i18n import gettext, ngettext
from pbem.words.cards import card_list
from pbem.words.events import describe_event
from pbem.words.outcomes import sentence
from pbem.words.places import goal_place
from pbem.words.roles import a_role, role_name

ACTIONS_THAT_DRAW = frozenset({"path_placed", "tool_broken", "tool_repaired", "rockfall", "map_used", "passed",
                               "theft_played", "theft_removed", "trapped", "freed", "hands_swapped", "inspected",
                               "hats_swapped", "cleared"})
# Actions told as two steps joined by "and" ("played a Rockfall and removed the Curve"), by the second step's verb: a
# draw after one makes the steps a list ("played a Rockfall, removed the Curve and drew a card"), never two "and"s.
# English words: in a language whose line has no such " and removed ", the draw is joined as after any action.
SECOND_STEPS = {"rockfall": "removed", "theft_removed": "removed", "freed": "set", "inspected": "looked at"}


def _head(line: str) -> str:
    """A line without its full stop, for a follow-up to go on from."""
    return line[:-1] if line.endswith(".") else line


def _a_card(count: int) -> str:
    """ "a card", "2 cards"."""
    return ngettext("a card", "%(num)d cards", count)


def _found(gold: bool) -> str:
    return gettext("it holds the gold") if gold else gettext("only stone")


def _drawn(head: str, comma: bool, what: str) -> str:
    if comma:
        return gettext("%(line)s, and drew %(what)s.", line=head, what=what)
    return gettext("%(line)s and drew %(what)s.", line=head, what=what)


def describe_events(events: Sequence[dict[str, Any]], names: Sequence[str], you: int | None = None) -> list[str]:
    """The lines of one move's events for one reader, one line per thing that happened, the cards drawn, the map's
    answer and the gold received told inside the line of the move that caused them. `events` are those the reader
    may see, in order."""
    lines: list[str] = []
    last: dict[str, Any] | None = None  # the event the previous line tells, and how its line was built
    for event in events:
        kind = event.get("type", "")
        merged = _merge(last, event, lines[-1] if lines else "", you)
        if merged is not None:
            line, drawn = merged
            lines[-1] = sentence(line)  # "... and drew Free at last!", without a full stop after the "!"
            if drawn is not None:
                last = {**(last or {}), "drew": event["count"], "drawn": drawn}
            else:
                last = {**(last or {}), "merged": kind}  # the line goes on: a draw after it takes a comma
            continue
        lines.append(describe_event(event, names, you))
        last = event
    return lines


def _merge(last: dict[str, Any] | None, event: dict[str, Any], line: str,
           you: int | None) -> tuple[str, tuple[str, bool] | None] | None:
    """The previous line with `event` told inside it (and, for a draw, the line before it and its comma), or None
    when `event` takes a line of its own."""
    if last is None:
        return None
    kind, before = event.get("type"), last.get("type")
    mine = you is not None and event.get("seat") == you
    if kind == "goal_revealed" and before == "path_placed" and "drew" not in last:
        place, found = goal_place(event), _found(event["gold"])
        if last.get("merged") == "goal_revealed":  # a second goal turned over by the same card
            return gettext("%(line)s and the %(place)s goal (%(found)s).", line=_head(line), place=place,
                           found=found), None
        return gettext("%(line)s, turning over the %(place)s goal (%(found)s).", line=_head(line), place=place,
                       found=found), None
    if kind == "drew" and before in ACTIONS_THAT_DRAW and "drew" not in last and last.get("seat") == event.get("seat"):
        step = SECOND_STEPS.get(before or "")
        comma = before == "passed" or "merged" in last
        head = _head(line)
        if step is not None and f" and {step} " in head:
            head, comma = head.replace(f" and {step} ", f", {step} ", 1), False
        return _drawn(head, comma, _a_card(event["count"])), (head, comma)
    if kind == "drew_cards" and mine and last.get("drawn") is not None:
        head, comma = last["drawn"]
        return _drawn(head, comma, card_list(event.get("names", []))), None
    if kind == "discarded" and mine and before in ("passed", "cleared"):
        cards = card_list(event.get("names", []))
        if before == "passed":
            return gettext("You passed, discarding %(cards)s face down.", cards=cards), None
        return gettext("%(line)s (%(cards)s).", line=_head(line), cards=cards), None
    if kind == "map_peek" and mine and before == "map_used":
        if event["gold"]:
            return gettext("%(line)s (it holds the gold).", line=_head(line)), None
        return gettext("%(line)s (only stone).", line=_head(line)), None
    if kind == "gold_kept" and mine and before in ("gold_picked", "saboteur_paid"):
        worth = " + ".join(str(v) for v in event["values"]) or "0"
        if before == "gold_picked":
            return gettext("%(line)s, worth %(worth)s.", line=_head(line), worth=worth), None
        return gettext("%(line)s (%(worth)s).", line=_head(line), worth=worth), None
    if kind == "role_seen" and you is not None and last.get("seat") == you and before == "inspected":
        return gettext("%(line)s (%(role)s).", line=_head(line), role=a_role(event["role"])), None
    if kind == "hand_received" and mine and before == "hands_swapped":
        return gettext("%(line)s; your hand is now %(cards)s.", line=_head(line),
                       cards=card_list(event.get("names", []))), None
    if kind == "role_changed" and mine and before == "hats_swapped" and "drew" not in last:
        return gettext("%(line)s; your new role: %(role)s.", line=_head(line), role=role_name(event["role"])), None
    return None
