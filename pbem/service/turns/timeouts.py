"""What happens when a pending decision runs out of time: the move, the record, the word to the table.

- A gold pick takes the highest value on offer; a Saboteur 2 Theft is let go.
- Policy `auto-pass`: discard one card face down, the one the player marked in advance ("if I time out,
  discard this") if it is still in hand, else a random one. It never builds or plays an action, so a timeout
  reveals nothing about the seat's side.
- Policy `bot`: the computer player decides (`pbem.service.turns.bots.bot_move`, the one place bots choose).
- Policy `notify-host`: the host is told and the game waits for them.

Every timeout counts towards the seat's run; after `absent_after` in a row the seat is flagged absent and
the host is emailed one-click links. Callers hold the game row locked and have claimed the decision.

A computer seat is timed out only by the host's skip, after its own move was refused: a card is discarded
face down for it. A timeout move that is refused (by the rules, or the database) changes nothing: the sweep
holds the turn for the host (`pbem/service/turns/refused_moves.py`), a skip answers MoveRefused.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Sequence
from datetime import datetime

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

import engine
from pbem.clock import Clock
from pbem.errors import InvalidMove, MoveRefused
from pbem.i18n import in_language
from pbem.mail.outbox import Outbox
from pbem.models import Game, Seat, TurnClock
from pbem.service.events import describe, visible_events
from pbem.service.letters.host_notices import enqueue_absent_notice, enqueue_stalling_notice
from pbem.service.seats.auto_pass_links import AutoPassLinks
from pbem.service.talk.chat import post_system_line
from pbem.service.talk.system_lines import system_line, timed_out_line
from pbem.service.timing.deadlines import policy
from pbem.service.timing.turn_clock import reschedule
from pbem.service.turns.bots import bot_move, seat_events
from pbem.service.turns.games import GameService
from pbem.service.turns.refused_moves import hold_for_host
from pbem.times import format_duration

log = logging.getLogger(__name__)

REFUSED = "refused"  # what `time_out` returns when the timeout move was refused and the host was told


def timeout_move(
    state: engine.Game, seat: int, marked_card: int | None, how: str, seed: int, events: Sequence[engine.Event] = ()
) -> engine.Move:
    """The move made for a seat that ran out of time (`how`: "auto-pass" or "bot"; `events`: what the seat has
    seen, for the bot to judge the others by)."""
    moves = engine.legal_moves(state, seat)
    picks = [move for move in moves if move["type"] == "pick_gold"]
    if picks:
        return max(picks, key=lambda move: move["value"])
    if any(move["type"] == "steal" for move in moves):
        return {"type": "steal", "target": None}
    if how == "bot":
        return bot_move(state, seat, seed, events)
    hand = [card["id"] for card in engine.view(state, seat)["you"].get("hand", [])]
    passes = [move for move in moves if move["type"] == "pass"]
    if not hand or not passes:
        return bot_move(state, seat, seed)  # cannot happen in Saboteur (a seat with no cards is passed over)
    card = marked_card if marked_card in hand else random.Random(seed).choice(hand)
    move: engine.Move = {"type": "pass", "cards": [card]}
    return move if move in passes else random.Random(seed).choice(passes)


def how_timed_out(view: engine.View, how: str) -> str:
    """The word stored in the `timed_out` event: what the game did instead of the player ("gold" for a gold pick
    and "steal" for a Theft, read from the seat's view; else `how`)."""
    if view["phase"] == engine.GOLD_PICK:
        return "gold"
    if view["phase"] == engine.STEAL:
        return "steal"
    return how


class Timeouts:
    def __init__(self, games: GameService, outbox: Outbox, clock: Clock, links: AutoPassLinks, base_url: str) -> None:
        self._games = games
        self._outbox = outbox
        self._clock = clock
        self._links = links
        self._base_url = base_url.rstrip("/")

    def time_out(self, session: Session, game: Game, clock: TurnClock, now: datetime, *, by_host: bool = False) -> str:
        """Apply the game's timeout policy to the pending decision; returns what was done.

        `by_host`: the host skipped the turn (notify-host then means: pass for them now).
        """
        seat = game.seats[clock.seat]  # type: ignore[index]
        chosen = "auto-pass" if seat.auto_pass or seat.is_bot else policy(game.policies, "timeout_policy")
        if chosen == "notify-host" and not by_host:
            enqueue_stalling_notice(
                session, self._outbox, game=game, seat=seat, now=now, reminders_sent=clock.reminders_sent
            )
            clock.timed_out = True
            reschedule(game, clock, now)
            post_system_line(session, game, system_line("host_decides", name=seat.display_name), "timeout", now=now)
            self._games.mail.deadline_passed(
                session, game, seat, started_at=clock.started_at, now=now, lines=[], host_decides=True
            )
            self._count(session, game, seat)
            return "notify-host"
        how = "bot" if chosen == "bot" else "auto-pass"
        seed = self._games.chance.seed()
        marked = seat.timeout_card
        done: list[str] = []
        seen = seat_events(session, game.id, seat.seat_index, game.current_seq or 0) if how == "bot" else []

        def choose(state: engine.Game) -> tuple[engine.Move, str]:
            done.append(how_timed_out(engine.view(state, seat.seat_index), how))
            return timeout_move(state, seat.seat_index, marked, how, seed, seen), done[0]

        started_at = clock.started_at  # the clock moves on to the next decision with the move
        with in_language(None):  # the line is stored in English for every reader (pbem/service/talk/system_lines.py)
            waited = format_duration(now - started_at)
        events = self._timeout_move(session, game, choose)
        if events is None:
            if by_host:
                raise MoveRefused()
            hold_for_host(session, self._outbox, game, seat, now)
            return REFUSED
        self._games.mail.deadline_passed(
            session, game, seat, started_at=started_at, now=now, by_host=by_host,
            lines=describe(visible_events(events[1:], seat.seat_index), game.names, seat.seat_index),
        )
        seat.timeout_card = None
        line = timed_out_line(seat.display_name, done[0], by_host=by_host, waited=waited)
        post_system_line(session, game, line, "timeout", now=now)
        if not seat.is_bot:
            self._count(session, game, seat)
        return done[0]

    def _timeout_move(
        self, session: Session, game: Game, choose: Callable[[engine.Game], tuple[engine.Move, str]]
    ) -> list[engine.Event] | None:
        """The timeout move's events, or None (logged) when it was refused; then nothing of it is written."""
        try:
            with session.begin_nested():  # flushes what the caller changed first, so only the move is undone
                return self._games.apply_timeout(session, game, choose)
        except (InvalidMove, IntegrityError):
            log.exception("game %s: the timeout move for seat %s was refused", game.public_id, game.to_act_seat)
            session.expire_all()  # the game row as it is again (the move's writes set it as if committed)
            return None

    def _count(self, session: Session, game: Game, seat: Seat) -> None:
        seat.timeouts_in_row += 1
        if seat.absent or seat.timeouts_in_row < policy(game.policies, "absent_after"):
            return
        seat.absent = True
        enqueue_absent_notice(
            session, self._outbox, game=game, seat=seat,
            auto_pass_url=self._links.url(game.public_id, seat.seat_index, seat.token_version),
            host_url=f"{self._base_url}/host/games/{game.public_id}",
        )
        post_system_line(
            session,
            game,
            system_line("absent", name=seat.display_name, num=seat.timeouts_in_row),
            "absent",
            now=self._clock.now(),
        )
