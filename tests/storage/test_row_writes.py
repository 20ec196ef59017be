"""Plain-statement writes of a move's rows (pbem/models/row_writes.py): the database and the loaded objects agree,
and nothing is written twice."""

from __future__ import annotations

from sqlalchemy import event, select
from sqlalchemy.orm import Session

from pbem.models import Game, TurnClock
from pbem.models.row_writes import flush_changed, update_row, update_unloaded
from pbem.runtime import Runtime
from tests.support.games import NewGame


def flushes_during(session: Session) -> list[int]:
    calls: list[int] = []
    event.listen(session, "before_flush", lambda *_: calls.append(1))
    return calls


def test_a_row_updated_by_statement_shows_the_new_values_and_leaves_nothing_to_flush(
    runtime: Runtime, new_game: NewGame
) -> None:
    game_id = new_game()
    with runtime.db.write() as session:
        flushes = flushes_during(session)
        game = session.scalars(select(Game).where(Game.public_id == game_id)).one()
        clock = session.get_one(TurnClock, game.id)

        update_row(session, game, title="Deeper mine")
        clock.reminders_sent = 3
        flush_changed(session, clock)

        assert (game.title, clock.reminders_sent) == ("Deeper mine", 3)
    assert flushes == []  # the commit found nothing left to write
    with runtime.db.read() as session:
        game = session.scalars(select(Game).where(Game.public_id == game_id)).one()
        assert (game.title, session.get_one(TurnClock, game.id).reminders_sent) == ("Deeper mine", 3)


def test_a_change_the_statement_does_not_name_is_left_to_the_flush(runtime: Runtime, new_game: NewGame) -> None:
    game_id = new_game()
    with runtime.db.write() as session:
        game = session.scalars(select(Game).where(Game.public_id == game_id)).one()
        game.title = "Left to the flush"
        update_row(session, game, paused=True)  # the title is not named here: the session still owes it
        assert game in session.dirty
    with runtime.db.read() as session:
        stored = session.scalars(select(Game).where(Game.public_id == game_id)).one()
        assert (stored.title, stored.paused) == ("Left to the flush", True)


def test_a_row_not_loaded_is_updated_with_its_counters_raised_in_the_database(
    runtime: Runtime, new_game: NewGame
) -> None:
    game_id = new_game()
    with runtime.db.read() as session:
        game_pk = session.scalar(select(Game.id).where(Game.public_id == game_id))
        version = session.get_one(TurnClock, game_pk).version

    with runtime.db.write() as session:
        found = update_unloaded(session, TurnClock, {"game_id": game_pk}, {"reminders_sent": 2}, add={"version": 3})
        missing = update_unloaded(session, TurnClock, {"game_id": game_pk + 1000}, {"reminders_sent": 2}, add={})

    assert (found, missing) == (True, False)
    with runtime.db.read() as session:
        clock = session.get_one(TurnClock, game_pk)
        assert (clock.reminders_sent, clock.version) == (2, version + 3)
