"""Which engine events a seat may see, and their English lines.

An event's audience is "public" or a list of seats. Everything shown to a player (pages, emails,
history) passes through `visible_events`, so a private event never reaches the wrong seat.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pbem.words import events as words
from pbem.words.lines import describe_events


def is_visible(event: dict[str, Any], seat: int | None) -> bool:
    audience = event.get("audience")
    if audience == "public":
        return True
    return seat is not None and isinstance(audience, list) and seat in audience


def visible_events(events: Iterable[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    """The events `seat` may see; `None` means an onlooker, who sees only public events."""
    return [event for event in events if is_visible(event, seat)]


# Events the server adds beside the engine's (public, stored with the snapshot like the engine's own).
# How the game moved on for a seat that ran out of time; {them}/{their}: that seat, "you"/"your" for its reader.
TIMED_OUT_HOW = {
    "auto-pass": "discarded a card face down for {them}",
    "bot": "let a computer player take the turn",
    "gold": "took the highest gold card on offer for {them}",
    "steal": "let {their} Theft go",
}


SERVER_EVENTS = ("timed_out", "rolled_back")


def describe_event(event: dict[str, Any], names: list[str], you: int | None = None) -> str:
    """One line for a server event; `you`: the reader's seat, told as "you"."""
    if event.get("type") == "timed_out":
        seat = event.get("seat")
        mine = you is not None and seat == you
        who = "You" if mine else names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "Someone"
        how = TIMED_OUT_HOW.get(event.get("how", ""), "moved on")
        how = how.format(them="you" if mine else "them", their="your" if mine else "their")
        return f"{who} ran out of time: the game {how}."
    if event.get("type") == "rolled_back":
        return f"The host took the game back to how it stood at turn {event.get('to_seq')}; play goes on from there."
    return words.describe_event(event, names, you)


def describe_openly(event: dict[str, Any], names: list[str]) -> str:
    """Like `pbem.words.events.describe_openly` (every event in the third person), for the server's events too."""
    if event.get("type") in SERVER_EVENTS:
        return describe_event(event, names)
    return words.describe_openly(event, names)


def describe(events: Iterable[dict[str, Any]], names: list[str], you: int | None = None) -> list[str]:
    """One move's lines for a reader (`you`: their seat, called "you"; None: everyone by name): the engine's
    `describe_events`, with the server's own events (a timeout, a rollback) each on a line of their own."""
    lines: list[str] = []
    run: list[dict[str, Any]] = []
    for event in events:
        if event.get("type") in SERVER_EVENTS:
            lines += describe_events(run, names, you) + [describe_event(event, names, you)]
            run = []
        else:
            run.append(event)
    return lines + describe_events(run, names, you)
