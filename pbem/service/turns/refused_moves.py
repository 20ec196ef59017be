"""A move the server makes for a seat (a computer seat's turn, a timeout) that is refused: held for the host.

Such a move is never retried by itself: it would be refused again, for ever. The decision's clock is marked as
waiting for the host (`turn_clocks.timed_out`, as for the notify-host policy), so neither the computer players'
job nor the sweep takes it up again; the host is emailed once per decision and the table is told. The host's
"skip" then discards a card face down for the seat (`pbem/service/turns/turn_controls.py`), or the host rolls the
game back or ends it. The caller logs the refusal with its cause.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from pbem.mail.outbox import Outbox
from pbem.models import Game, Seat
from pbem.service.letters.host_notices import enqueue_move_refused_notice
from pbem.service.talk.chat import post_system_line
from pbem.service.talk.system_lines import system_line
from pbem.service.timing.turn_clock import current_clock, plan_turn, reschedule


def hold_for_host(session: Session, outbox: Outbox, game: Game, seat: Seat, now: datetime) -> None:
    """Stop trying `seat`'s pending decision and tell the host; the caller holds the game row locked."""
    clock = current_clock(session, game)
    if clock is None:
        plan_turn(session, game, now)
        clock = current_clock(session, game)
    if clock is None or clock.timed_out:
        return
    clock.timed_out = True
    reschedule(game, clock, now)
    enqueue_move_refused_notice(session, outbox, game=game, seat=seat)
    post_system_line(
        session, game, system_line("move_refused", name=seat.display_name),
        "move_refused", now=now,
    )
