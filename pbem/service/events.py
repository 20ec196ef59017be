"""Which engine events a seat may see, and their lines in the reader's language.

An event's audience is "public" or a list of seats. Everything shown to a player (pages, emails,
history) passes through `visible_events`, so a private event never reaches the wrong seat.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import engine
from pbem.words import events as words
from pbem.words.lines import describe_events
from pbem.words.server_events import rolled_back_line, timed_out_line


def is_visible(event: Mapping[str, Any], seat: int | None) -> bool:
    audience = event.get("audience")
    if audience == "public":
        return True
    return seat is not None and isinstance(audience, list) and seat in audience


def visible_events(events: Iterable[engine.Event], seat: int | None) -> list[engine.Event]:
    """The events `seat` may see; `None` means an onlooker, who sees only public events."""
    return [event for event in events if is_visible(event, seat)]


# Events the server adds beside the engine's (public, stored with the snapshot like the engine's own).
SERVER_EVENTS = ("timed_out", "rolled_back")


def describe_event(event: engine.Event, names: list[str], you: int | None = None) -> str:
    """One line for a server event; `you`: the reader's seat, told as "you"."""
    if event.get("type") == "timed_out":
        return timed_out_line(event, names, you)
    if event.get("type") == "rolled_back":
        return rolled_back_line(event)
    return words.describe_event(event, names, you)


def describe_openly(event: engine.Event, names: list[str]) -> str:
    """Like `pbem.words.events.describe_openly` (every event in the third person), for the server's events too."""
    if event.get("type") in SERVER_EVENTS:
        return describe_event(event, names)
    return words.describe_openly(event, names)


def describe(events: Iterable[engine.Event], names: list[str], you: int | None = None) -> list[str]:
    """One move's lines for a reader (`you`: their seat, called "you"; None: everyone by name): the engine's
    `describe_events`, with the server's own events (a timeout, a rollback) each on a line of their own."""
    lines: list[str] = []
    run: list[engine.Event] = []
    for event in events:
        if event.get("type") in SERVER_EVENTS:
            lines += describe_events(run, names, you) + [describe_event(event, names, you)]
            run = []
        else:
            run.append(event)
    return lines + describe_events(run, names, you)
