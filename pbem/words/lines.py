"""A move's lines for one reader: one line per thing that happened, its private follow-ups told inside the line
of the event that caused them ("You built a Crossing at (3, 0) and drew Map.")."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine import Event
from pbem.i18n import gettext, ngettext
from pbem.words.cards import card_label, card_list, tool_name
from pbem.words.events import Reader, describe_event, on_player, you_or
from pbem.words.outcomes import sentence
from pbem.words.places import goal_place
from pbem.words.roles import a_role, role_name
from pbem.words.table import N_

ACTIONS_THAT_DRAW = frozenset({"path_placed", "tool_broken", "tool_repaired", "rockfall", "map_used", "passed",
                               "theft_played", "theft_removed", "trapped", "freed", "hands_swapped", "inspected",
                               "hats_swapped", "cleared"})
Drawn = Callable[[str], str]  # a line told again with what was drawn ("a card", "Map and Theft")
# An event as the line before told it: the event, with how its line was built (what it drew, what it merged)
Told = Mapping[str, Any]


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


def describe_events(events: Sequence[Event], names: Sequence[str], you: int | None = None) -> list[str]:
    """The lines of one move's events for one reader, one line per thing that happened, the cards drawn, the map's
    answer and the gold received told inside the line of the move that caused them. `events` are those the reader
    may see, in order."""
    lines: list[str] = []
    last: Told | None = None  # the event the previous line tells, and how its line was built
    for event in events:
        merged = _merge(last, event, lines[-1] if lines else "", names, you)
        if merged is not None:
            line, told = merged
            lines[-1] = sentence(line)  # "... and drew Free at last!", without a full stop after the "!"
            last = {**(last or {}), **told}
            continue
        lines.append(describe_event(event, names, you))
        last = event
    return lines


def _merge(last: Told | None, event: Event, line: str, names: Sequence[str],
           you: int | None) -> tuple[str, dict[str, Any]] | None:
    """The previous line with `event` told inside it, and what the next follow-up needs to know of it; None when
    `event` takes a line of its own."""
    if last is None:
        return None
    kind, before = event.get("type"), last.get("type")
    mine = you is not None and event.get("seat") == you
    merged = {"merged": kind}  # the line goes on: a draw after it takes a comma
    if kind == "goal_revealed" and before == "path_placed" and "drew" not in last:
        place, found = goal_place(event), _found(event["gold"])
        if last.get("merged") == "goal_revealed":  # a second goal turned over by the same card
            return gettext("%(line)s and the %(place)s goal (%(found)s).", line=_head(line), place=place,
                           found=found), merged
        return gettext("%(line)s, turning over the %(place)s goal (%(found)s).", line=_head(line), place=place,
                       found=found), merged
    if kind == "drew" and before in ACTIONS_THAT_DRAW and "drew" not in last and last.get("seat") == event.get("seat"):
        drawn = _drawn_after(last, line, names, you)
        return drawn(_a_card(event["count"])), {"drew": event["count"], "drawn": drawn}
    if kind == "drew_cards" and mine and last.get("drawn") is not None:
        return last["drawn"](card_list(event.get("names", []))), merged
    if kind == "discarded" and mine and before in ("passed", "cleared"):
        cards = card_list(event.get("names", []))
        if before == "passed":
            return gettext("You passed, discarding %(cards)s face down.", cards=cards), {**merged, "cards": cards}
        return gettext("%(line)s (%(cards)s).", line=_head(line), cards=cards), merged
    if kind == "map_peek" and mine and before == "map_used":
        if event["gold"]:
            return gettext("%(line)s (it holds the gold).", line=_head(line)), merged
        return gettext("%(line)s (only stone).", line=_head(line)), merged
    if kind == "gold_kept" and mine and before in ("gold_picked", "saboteur_paid"):
        worth = " + ".join(str(v) for v in event["values"]) or "0"
        if before == "gold_picked":
            return gettext("%(line)s, worth %(worth)s.", line=_head(line), worth=worth), merged
        return gettext("%(line)s (%(worth)s).", line=_head(line), worth=worth), merged
    if kind == "role_seen" and you is not None and last.get("seat") == you and before == "inspected":
        role = a_role(event["role"])
        return gettext("%(line)s (%(role)s).", line=_head(line), role=role), {**merged, "seen": role}
    if kind == "hand_received" and mine and before == "hands_swapped":
        return gettext("%(line)s; your hand is now %(cards)s.", line=_head(line),
                       cards=card_list(event.get("names", []))), merged
    if kind == "role_changed" and mine and before == "hats_swapped" and "drew" not in last:
        return gettext("%(line)s; your new role: %(role)s.", line=_head(line), role=role_name(event["role"])), merged
    return None


def _drawn_after(action: Told, line: str, names: Sequence[str], you: int | None) -> Drawn:
    """How the action's line reads with its draw told inside it: one message for a build, a pass and an action told
    in two steps ("played a Rockfall and removed the Curve" becomes "played a Rockfall, removed the Curve and drew a
    card", never two "and"s); another line with its draw joined after it (", and drew" after a follow-up)."""
    steps = TWO_STEPS.get(action.get("type", ""))
    if steps is not None:
        r = Reader(action, names, you)
        return lambda what: steps(action, r, what)
    one_step = ONE_STEP.get(action.get("type", ""))
    if one_step is not None and "merged" not in action:
        r = Reader(action, names, you)
        return lambda what: one_step(action, r, what)
    if action.get("type") == "passed" and (action.get("merged") == "discarded" or "merged" not in action):
        r = Reader(action, names, you)
        return lambda what: _passed_drawn(action, r, what)
    head, comma = _head(line), action.get("type") == "passed" or "merged" in action
    return lambda what: _drawn(head, comma, what)


def _built_drawn(e: Told, r: Reader, what: str) -> str:
    fields = {"card": card_label(e["name"]), "x": e["x"], "y": e["y"], "what": what}
    if e.get("rotated"):
        return you_or(r, "seat", N_("You built a %(card)s at (%(x)s, %(y)s), turned around and drew %(what)s."),
                      N_("%(name)s built a %(card)s at (%(x)s, %(y)s), turned around and drew %(what)s."), **fields)
    return you_or(r, "seat", N_("You built a %(card)s at (%(x)s, %(y)s) and drew %(what)s."),
                  N_("%(name)s built a %(card)s at (%(x)s, %(y)s) and drew %(what)s."), **fields)


def _tool_broken_drawn(e: Told, r: Reader, what: str) -> str:
    tool = tool_name(e["tool"])
    if r.is_you():
        if r.is_you("target"):
            return gettext("You broke your %(tool)s and drew %(what)s.", tool=tool, what=what)
        return gettext("You broke %(target)s's %(tool)s and drew %(what)s.", target=r.name("target"), tool=tool,
                       what=what)
    if r.is_you("target"):
        return gettext("%(name)s broke your %(tool)s and drew %(what)s.", name=r.name(), tool=tool, what=what)
    return gettext("%(name)s broke %(target)s's %(tool)s and drew %(what)s.", name=r.name(), target=r.name("target"),
                   tool=tool, what=what)


def _tool_repaired_drawn(e: Told, r: Reader, what: str) -> str:
    return on_player(r, N_("You repaired your own %(tool)s and drew %(what)s."),
                     N_("%(name)s repaired their own %(tool)s and drew %(what)s."),
                     N_("You repaired %(target)s's %(tool)s and drew %(what)s."),
                     N_("%(name)s repaired your %(tool)s and drew %(what)s."),
                     N_("%(name)s repaired %(target)s's %(tool)s and drew %(what)s."), tool=tool_name(e["tool"]),
                     what=what)


def _map_used_drawn(e: Told, r: Reader, what: str) -> str:
    return you_or(r, "seat", N_("You looked at the %(place)s goal with a Map and drew %(what)s."),
                  N_("%(name)s looked at the %(place)s goal with a Map and drew %(what)s."), place=goal_place(e),
                  what=what)


def _theft_played_drawn(e: Told, r: Reader, what: str) -> str:
    return you_or(r, "seat", N_("You put a Theft in front of yourself and drew %(what)s."),
                  N_("%(name)s put a Theft in front of themselves and drew %(what)s."), what=what)


def _trapped_drawn(e: Told, r: Reader, what: str) -> str:
    return on_player(r, N_("You played Trapped! on yourself and drew %(what)s."),
                     N_("%(name)s played Trapped! on themselves and drew %(what)s."),
                     N_("You played Trapped! on %(target)s and drew %(what)s."),
                     N_("%(name)s played Trapped! on you and drew %(what)s."),
                     N_("%(name)s played Trapped! on %(target)s and drew %(what)s."), what=what)


def _hats_swapped_drawn(e: Told, r: Reader, what: str) -> str:
    return on_player(r, N_("You played Swap Your Hats on yourself and drew %(what)s."),
                     N_("%(name)s played Swap Your Hats on themselves and drew %(what)s."),
                     N_("You played Swap Your Hats on %(target)s and drew %(what)s."),
                     N_("%(name)s played Swap Your Hats on you and drew %(what)s."),
                     N_("%(name)s played Swap Your Hats on %(target)s and drew %(what)s."), what=what)


def _cleared_drawn(e: Told, r: Reader, what: str) -> str:
    if r.is_you():
        return ngettext("You discarded %(num)d card to remove the %(card)s lying in front of you and drew %(what)s.",
                        "You discarded %(num)d cards to remove the %(card)s lying in front of you and drew %(what)s.",
                        e["count"], card=card_label(e["name"]), what=what)
    return ngettext("%(name)s discarded %(num)d card to remove the %(card)s lying in front of them and drew %(what)s.",
                    "%(name)s discarded %(num)d cards to remove the %(card)s lying in front of them and drew "
                    "%(what)s.", e["count"], name=r.name(), card=card_label(e["name"]), what=what)


def _passed_drawn(e: Told, r: Reader, what: str) -> str:
    if "cards" in e:  # the reader's own pass, its cards named
        return gettext("You passed, discarding %(cards)s face down, and drew %(what)s.", cards=e["cards"], what=what)
    if r.is_you():
        return ngettext("You passed, discarding a card face down, and drew %(what)s.",
                        "You passed, discarding %(num)d cards face down, and drew %(what)s.", e["count"], what=what)
    return ngettext("%(name)s passed, discarding a card face down, and drew %(what)s.",
                    "%(name)s passed, discarding %(num)d cards face down, and drew %(what)s.", e["count"],
                    name=r.name(), what=what)


def _rockfall_drawn(e: Told, r: Reader, what: str) -> str:
    return you_or(r, "seat", N_("You played a Rockfall, removed the %(card)s at (%(x)s, %(y)s) and drew %(what)s."),
                  N_("%(name)s played a Rockfall, removed the %(card)s at (%(x)s, %(y)s) and drew %(what)s."),
                  card=card_label(e["name"]), x=e["x"], y=e["y"], what=what)


def _hands_off_drawn(e: Told, r: Reader, what: str) -> str:
    return on_player(r, N_("You played Hands Off, removed your Theft and drew %(what)s."),
                     N_("%(name)s played Hands Off, removed %(name)s's Theft and drew %(what)s."),
                     N_("You played Hands Off, removed %(target)s's Theft and drew %(what)s."),
                     N_("%(name)s played Hands Off, removed your Theft and drew %(what)s."),
                     N_("%(name)s played Hands Off, removed %(target)s's Theft and drew %(what)s."), what=what)


def _freed_drawn(e: Told, r: Reader, what: str) -> str:
    return on_player(r, N_("You played Free at last!, set yourself free and drew %(what)s."),
                     N_("%(name)s played Free at last!, set themselves free and drew %(what)s."),
                     N_("You played Free at last!, set %(target)s free and drew %(what)s."),
                     N_("%(name)s played Free at last!, set you free and drew %(what)s."),
                     N_("%(name)s played Free at last!, set %(target)s free and drew %(what)s."), what=what)


def _inspected_drawn(e: Told, r: Reader, what: str) -> str:
    seen = e.get("seen")  # the card the reader saw, told inside the line (`role_seen`)
    if seen is not None and r.is_you() and r.on_self():
        return gettext("You played Inspection, looked at your dwarf card (%(role)s) and drew %(what)s.", role=seen,
                       what=what)
    if seen is not None and r.is_you():
        return gettext("You played Inspection on %(target)s, looked at their dwarf card (%(role)s) and drew "
                       "%(what)s.", target=r.name("target"), role=seen, what=what)
    return on_player(r, N_("You played Inspection, looked at your dwarf card and drew %(what)s."),
                     N_("%(name)s played Inspection on %(name)s, looked at their dwarf card and drew %(what)s."),
                     N_("You played Inspection on %(target)s, looked at their dwarf card and drew %(what)s."),
                     N_("%(name)s played Inspection, looked at your dwarf card and drew %(what)s."),
                     N_("%(name)s played Inspection on %(target)s, looked at their dwarf card and drew %(what)s."),
                     what=what)


# Actions told in one step, by their event: with a draw and nothing told inside them, one message with the draw.
ONE_STEP: dict[str, Callable[[Told, Reader, str], str]] = {
    "path_placed": _built_drawn, "tool_broken": _tool_broken_drawn, "tool_repaired": _tool_repaired_drawn,
    "map_used": _map_used_drawn, "theft_played": _theft_played_drawn, "trapped": _trapped_drawn,
    "hats_swapped": _hats_swapped_drawn, "cleared": _cleared_drawn,
}
# Actions told as two steps joined by "and", by their event: with a draw, the steps and the draw are one list.
TWO_STEPS: dict[str, Callable[[Told, Reader, str], str]] = {
    "rockfall": _rockfall_drawn, "theft_removed": _hands_off_drawn, "freed": _freed_drawn,
    "inspected": _inspected_drawn,
}
