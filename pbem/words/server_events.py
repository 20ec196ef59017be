"""The lines of the events the server adds beside the engine's: a turn that ran out of time, a rollback."""

from __future__ import annotations

import engine
from pbem.i18n import gettext
from pbem.words.table import N_

# How the game moved on for a seat that ran out of time, as the reader of that seat reads it and as others do.
TIMED_OUT = {
    "auto-pass": (N_("You ran out of time: the game discarded a card face down for you."),
                  N_("%(name)s ran out of time: the game discarded a card face down for them.")),
    "bot": (N_("You ran out of time: the game let a computer player take the turn."),
            N_("%(name)s ran out of time: the game let a computer player take the turn.")),
    "gold": (N_("You ran out of time: the game took the highest gold card on offer for you."),
             N_("%(name)s ran out of time: the game took the highest gold card on offer for them.")),
    "steal": (N_("You ran out of time: the game let your Theft go."),
              N_("%(name)s ran out of time: the game let their Theft go.")),
}
MOVED_ON = (N_("You ran out of time: the game moved on."), N_("%(name)s ran out of time: the game moved on."))


def timed_out_line(event: engine.Event, names: list[str], you: int | None) -> str:
    """A seat's time ran out; `you`: the reader's seat, told as "you"."""
    seat = event.get("seat")
    yours, theirs = TIMED_OUT.get(str(event.get("how", "")), MOVED_ON)
    if you is not None and seat == you:
        return gettext(yours)
    name = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else gettext("Someone")
    return gettext(theirs, name=name)


def rolled_back_line(event: engine.Event) -> str:
    return gettext("The host took the game back to how it stood at turn %(seq)s; play goes on from there.",
                   seq=event.get("to_seq"))
