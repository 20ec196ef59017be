"""The lines the host's actions post into a game's table talk, and the same lines in a reader's language.

Table talk stores a system line as text (`chat_messages.text`, with its `system_kind`), which every reader shares;
these lines are stored in English, written from the messages below, so a reader's page can read one back: the
line matched against its message gives the message's values (names, a turn, a reason), and the message is said
again in the reader's language. A line that matches none (written before, or cut) is shown as it was stored.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from pbem.i18n import gettext
from pbem.words.table import N_

# By the chat's system kind: each line as one message, its values named.
TABLE_LINES = {
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
}
_VALUE = re.compile(r"%\((\w+)\)s")


def stored_line(kind: str, **values: Any) -> str:
    """The line of `kind` as table talk stores it: in English, whoever acted."""
    return TABLE_LINES[kind] % values


def read_line(text: str) -> str:
    """A stored system line in the reader's language, when it is one of the host's; else as stored."""
    for message, pattern in _patterns():
        found = pattern.fullmatch(text)
        if found:
            return gettext(message, **found.groupdict())
    return text


@cache
def _patterns() -> list[tuple[str, re.Pattern[str]]]:
    patterns = []
    for message in TABLE_LINES.values():
        parts, seen, last = [], set(), 0
        for value in _VALUE.finditer(message):
            parts.append(re.escape(message[last:value.start()]))
            name = value.group(1)
            parts.append(f"(?P={name})" if name in seen else f"(?P<{name}>.+?)")
            seen.add(name)
            last = value.end()
        parts.append(re.escape(message[last:]))
        patterns.append((message, re.compile("".join(parts), re.DOTALL)))
    return patterns
