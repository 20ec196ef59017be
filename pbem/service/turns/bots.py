"""Computer players take their turns a few seconds after the turn comes to them, never inside a web request.

The scheduler calls `play_due_bot_turns`. Each due turn is first claimed with a conditional update (a
short lease on the game row, valid only for that sequence number), so two schedulers running at once
never both think; the move then goes through `GameService.submit_move` like anyone's, as the server's own
(source SERVER, an unguessable id: no player's form can take it), for the sequence number it was decided at,
so even a doubled attempt applies once. A move that is refused is never tried again: it is logged and the
turn waits for the host (`pbem/service/turns/refused_moves.py`), whose "skip" plays it.

The computer decides with `engine.bots.HeuristicBot` from what the seat itself may know: its
`engine.view`, its legal moves and the stored events it may see (public ones and its own), exactly
what a person at that seat is shown. It is handed the full state only to build those.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

import engine
from pbem.clock import Clock
from pbem.db import Database
from pbem.errors import GameFinished, GamePaused, NotYourTurn, PbemError, StaleTurn
from pbem.models import Game, GameStatus, Seat, Snapshot, TurnClock
from pbem.models.row_writes import rows_changed
from pbem.service.events import visible_events
from pbem.service.rows import lock_game
from pbem.service.turns.games import GameService
from pbem.service.turns.refused_moves import hold_for_host
from pbem.service.turns.values import SERVER, PlayerSpec, server_submission_id

log = logging.getLogger(__name__)

BOT_LEASE = timedelta(minutes=2)
BATCH = 50
DEMO_TITLES = {"base": "Demo game", "saboteur2": "Demo game (Saboteur 2)"}


@dataclass(frozen=True)
class DueBotTurn:
    game_pk: int
    game_id: str
    seat: int
    seq: int


# The game moved on, was paused or ended between the claim and the move: nothing to do.
MOVED_ON = (StaleTurn, NotYourTurn, GamePaused, GameFinished)


def due_bot_turns(db: Database, clock: Clock, delay: timedelta, limit: int = BATCH) -> list[DueBotTurn]:
    """Active, unpaused games whose pending decision belongs to a computer seat, has waited `delay` and is not
    held for the host (its move was refused)."""
    now = clock.now()
    with db.read() as session:
        rows = session.execute(
            select(Game.id, Game.public_id, Game.to_act_seat, Game.current_seq)
            .join(Seat, (Seat.game_id == Game.id) & (Seat.seat_index == Game.to_act_seat))
            .outerjoin(TurnClock, (TurnClock.game_id == Game.id) & (TurnClock.seq == Game.current_seq))
            .where(
                Game.status == GameStatus.ACTIVE,
                Game.paused.is_(False),
                Seat.is_bot.is_(True),
                or_(TurnClock.timed_out.is_(None), TurnClock.timed_out.is_(False)),
                Game.turn_started_at <= now - delay,
                or_(Game.bot_lease_until.is_(None), Game.bot_lease_until <= now),
            )
            .order_by(Game.turn_started_at)
            .limit(limit)
        )
        return [DueBotTurn(game_pk=r[0], game_id=r[1], seat=r[2], seq=r[3]) for r in rows]


def claim(db: Database, clock: Clock, turn: DueBotTurn) -> bool:
    """Take the lease on this decision; False if another scheduler holds it or the game moved on."""
    now = clock.now()
    with db.write() as session:
        claimed = rows_changed(
            session,
            update(Game)
            .where(
                Game.id == turn.game_pk,
                Game.current_seq == turn.seq,
                or_(Game.bot_lease_until.is_(None), Game.bot_lease_until <= now),
            )
            .values(bot_lease_until=now + BOT_LEASE)
            .execution_options(synchronize_session=False)
        )
        return claimed == 1


def bot_move(state: engine.Game, seat: int, seed: int, events: Iterable[engine.Event] = ()) -> engine.Move:
    """The move a computer player makes for `seat`: the one place that decides how bots choose, used for
    computer seats and for absent players whose game times them out to a bot.

    The bot reads only the seat's view, its legal moves and, of `events` (the game's stored events, oldest
    first; see `seat_events`), those the seat may see; it judges the other seats from this round's.
    Without events it still plays, only without suspicion of anyone.
    """
    bot = engine.bots.HeuristicBot(seed)
    return bot.decide(engine.view(state, seat), engine.legal_moves(state, seat), visible_events(events, seat))


def seat_events(session: Session, game_pk: int, seat: int, upto_seq: int) -> list[engine.Event]:
    """The events of game `game_pk` (its primary key) up to snapshot `upto_seq` that `seat` may see, oldest
    first: what `bot_move` judges the other seats by. Takes the caller's session, so a caller holding the
    game row locked (a timeout) reads them in its own transaction."""
    rows = session.scalars(
        select(Snapshot.events)
        .where(Snapshot.game_id == game_pk, Snapshot.seq <= upto_seq)
        .order_by(Snapshot.seq)
    )
    return visible_events((event for events in rows for event in events), seat)


def play_due_bot_turns(db: Database, clock: Clock, games: GameService, delay: timedelta) -> int:
    """Play every computer turn that is due; returns how many moves were applied."""
    played = 0
    for turn in due_bot_turns(db, clock, delay):
        if not claim(db, clock, turn):
            continue
        state, seq = games.engine_state(turn.game_id)
        if seq != turn.seq:
            continue
        with db.read() as session:
            events = seat_events(session, turn.game_pk, turn.seat, seq)
        move = bot_move(state, turn.seat, games.chance.seed(), events)
        try:
            result = games.submit_move(
                turn.game_id, turn.seat, move, turn.seq, server_submission_id("bot", turn.seq), source=SERVER
            )
        except MOVED_ON as exc:
            log.info("computer seat %s of game %s did not move: %s", turn.seat, turn.game_id, exc.message)
            continue
        except (PbemError, IntegrityError):
            log.exception("computer seat %s of game %s: its move %s was refused; the host decides", turn.seat,
                          turn.game_id, move)
            refuse(db, clock, games, turn)
            continue
        played += not result.replayed
    return played


def refuse(db: Database, clock: Clock, games: GameService, turn: DueBotTurn) -> None:
    """The computer seat's move for `turn` was refused: hold the turn for the host, if it is still pending."""
    with db.write() as session:
        game = lock_game(session, turn.game_id)
        if game.status == GameStatus.ACTIVE and game.current_seq == turn.seq and game.to_act_seat == turn.seat:
            hold_for_host(session, games.outbox, game, game.seats[turn.seat], clock.now())


def start_demo(games: GameService, *, name: str, email: str, bots: int, variant: str = "base") -> str:
    """Start a demo game: one person (seat 0, so the game opens on your turn) against `bots` computer
    players named "Bot 1"...; returns its public id."""
    players = [PlayerSpec(name=name, email=email)] + [PlayerSpec(f"Bot {n}", is_bot=True) for n in range(1, bots + 1)]
    game_id = games.create_game(
        title=DEMO_TITLES.get(variant, "Demo game"), players=players, host_email=email, variant=variant, is_demo=True
    )
    games.start_game(game_id)
    return game_id
