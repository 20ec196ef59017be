"""The lines the server posts into a game's table talk (the host's actions; the turn's clock: a pause, more time,
a nudge, a timed-out turn, a refused move), and the same lines in a reader's language.

Table talk stores one text for every reader (`chat_messages.text`), so a line is stored in English, written from
one of the messages below, and whoever shows it (a page, an email, a notification) reads it back with
`read_system_line`: matched against its message, it gives the message's values, and the message is said again in
the reader's language. A line that matches none (written before, or cut) is shown as it was stored.
"""

from __future__ import annotations

import re
from datetime import timedelta
from functools import cache
from typing import Any

from pbem.i18n import gettext, ngettext
from pbem.times import format_duration
from pbem.words.table import N_, NN_

Line = str | tuple[str, str]  # a message, or its singular and plural (counted by `num`)

# What the game did for a seat whose turn timed out (the `timed_out` event's word, pbem/service/turns/timeouts.py).
DONE_FOR = ("auto-pass", "bot", "gold", "steal")

# By what happened: each line as one message, its values named.
SYSTEM_LINES: dict[str, Line] = {
    # The host's actions.
    "seat_handover": N_("Seat %(seat)s changed hands: %(new_name)s takes over from %(old_name)s. A new email "
                        "address has been sent what the seat knows (its role, hand and map results)."),
    "link_rotated": N_("The host renewed %(name)s's link."),
    "link_resent": N_("The host sent %(name)s their link again."),
    "email_corrected": N_("%(name)s's email address changed (confirmed from the old address): %(name)s's links and "
                          "everything the seat knows now go to the new address."),
    "rolled_back": N_("The host rolled the game back to turn %(to_seq)s: %(reason)s"),
    "game_ended": N_("The host ended the game early. Standings as they are: %(standings)s."),
    "game_abandoned": N_("The host abandoned the game."),
    "host_revealed": N_("The host looked at the hidden cards to settle a dispute: %(reason)s"),
    # The turn's clock.
    "paused": N_("The host paused the game."),
    "resumed": N_("The host resumed the game."),
    "extended": NN_("The host gave %(name)s %(num)s more hour for this turn.",
                    "The host gave %(name)s %(num)s more hours for this turn."),
    "nudged": N_("The host sent %(name)s a reminder."),
    "nudged_with_note": N_("The host sent %(name)s a reminder with a note."),
    "auto_pass_on": N_("The host lets the game pass for %(name)s until they come back."),
    "auto_pass_off": N_("The game waits for %(name)s again at each turn."),
    "host_decides": N_("%(name)s ran out of time for this turn; the host decides what happens."),
    # The English says "turns" whatever the count (the count is the absence policy's, usually more than one).
    "absent": NN_("%(name)s has timed out %(num)s turns in a row; the host is asked what to do.",
                  "%(name)s has timed out %(num)s turns in a row; the host is asked what to do."),
    "move_refused": N_("The game could not make %(name)s's move; the host decides what happens."),
    # A timed-out turn: skipped by the host, or when the time ran out, and what the game did instead.
    "skipped:auto-pass": N_("%(name)s was skipped by the host: a card was discarded face down for them."),
    "skipped:bot": N_("%(name)s was skipped by the host: a computer player took the turn."),
    "skipped:gold": N_("%(name)s was skipped by the host: they got the highest gold card on offer."),
    "skipped:steal": N_("%(name)s was skipped by the host: their Theft was let go."),
    "skipped:other": N_("%(name)s was skipped by the host: the game moved on."),
    "late:auto-pass": N_("%(name)s ran out of time after %(waited)s: a card was discarded face down for them."),
    "late:bot": N_("%(name)s ran out of time after %(waited)s: a computer player took the turn."),
    "late:gold": N_("%(name)s ran out of time after %(waited)s: they got the highest gold card on offer."),
    "late:steal": N_("%(name)s ran out of time after %(waited)s: their Theft was let go."),
    "late:other": N_("%(name)s ran out of time after %(waited)s: the game moved on."),
}
_VALUE = re.compile(r"%\((\w+)\)s")


def system_line(kind: str, **values: Any) -> str:
    """The line of `kind` as table talk stores it: in English, whoever reads it."""
    line = SYSTEM_LINES[kind]
    if isinstance(line, tuple):
        return (line[0] if values["num"] == 1 else line[1]) % values
    return line % values


def timed_out_line(name: str, done: str, *, by_host: bool, waited: str) -> str:
    """A timed-out turn's line: skipped by the host, or after `waited` (as pbem/times.py words a span, in English)."""
    what = done if done in DONE_FOR else "other"
    if by_host:
        return system_line(f"skipped:{what}", name=name)
    return system_line(f"late:{what}", name=name, waited=waited)


def read_system_line(text: str) -> str:
    """A stored line in the reader's language; as stored when it is none of the messages above."""
    for line, pattern in _patterns():
        found = pattern.fullmatch(text)
        if found is None:
            continue
        values = found.groupdict()
        if "waited" in values:
            values["waited"] = read_span(values["waited"])
        if isinstance(line, tuple):
            return ngettext(line[0], line[1], int(values.pop("num")), **values)
        return gettext(line, **values)
    return text


# A span as pbem/times.py words it in English ("2 days and 3 hours", "45 minutes", "less than a minute").
_UNIT = r"(\d+) (day|hour|minute)s?"
_SPAN = re.compile(rf"{_UNIT}(?: and {_UNIT})?|less than a minute")
_MINUTES = {"day": 24 * 60, "hour": 60, "minute": 1}


def read_span(english: str) -> str:
    """The span `english` (after "ran out of time after") in the reader's language, worded by pbem/times.py in its
    form after a preposition ("nach 2 Tagen und 3 Stunden" takes the case of "vor 2 Tagen"); as given when it is
    not one."""
    found = _SPAN.fullmatch(english)
    if found is None:
        return english
    minutes = sum(int(count) * _MINUTES[unit] for count, unit in ((found.group(1), found.group(2)),
                                                                   (found.group(3), found.group(4))) if count)
    return format_duration(timedelta(minutes=minutes), "ago")


@cache
def _patterns() -> list[tuple[Line, re.Pattern[str]]]:
    patterns: list[tuple[Line, re.Pattern[str]]] = []
    for line in SYSTEM_LINES.values():
        for message in dict.fromkeys(line if isinstance(line, tuple) else (line,)):
            parts, seen, last = [], set(), 0
            for value in _VALUE.finditer(message):
                parts.append(re.escape(message[last:value.start()]))
                name = value.group(1)
                if name == "num":
                    parts.append(r"(?P<num>\d+)")
                else:
                    parts.append(f"(?P={name})" if name in seen else f"(?P<{name}>.+?)")
                seen.add(name)
                last = value.end()
            parts.append(re.escape(message[last:]))
            patterns.append((line, re.compile("".join(parts), re.DOTALL)))
    return patterns
