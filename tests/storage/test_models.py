"""What the schema itself guarantees, whatever code writes to it."""

from __future__ import annotations

import pytest
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from pbem.clock import SettableClock
from pbem.db import Database
from pbem.models import Game, Seat, Snapshot, SnapshotIsAppendOnly


def add_game(database: Database, clock: SettableClock) -> int:
    with database.write() as session:
        game = Game(title="T", variant="base", host_email="h@example.org", created_at=clock.now(),
                    updated_at=clock.now())
        game.seats = [Seat(seat_index=0, display_name="Ann", email="ann@example.org")]
        session.add(game)
        session.flush()
        session.add(Snapshot(game_id=game.id, seq=0, state={"schema": 1}, move=None, events=[],
                             created_at=clock.now()))
        return game.id


def test_two_snapshots_cannot_share_a_sequence_number(database: Database, clock: SettableClock) -> None:
    game_id = add_game(database, clock)

    with pytest.raises(IntegrityError), database.write() as session:
        session.add(Snapshot(game_id=game_id, seq=0, state={}, move=None, events=[], created_at=clock.now()))


def test_the_table_not_the_submission_id_is_the_key(database: Database, clock: SettableClock) -> None:
    """A retry loses to its first attempt on (game, seq); an id sent again on a later table is a row of its own."""
    game_id = add_game(database, clock)
    with database.write() as session:
        session.add(Snapshot(game_id=game_id, seq=1, state={}, move={}, events=[], submission_id="s-1",
                             source="player", actor_seat=0, created_at=clock.now()))

    with pytest.raises(IntegrityError), database.write() as session:
        session.add(Snapshot(game_id=game_id, seq=1, state={}, move={}, events=[], submission_id="s-1",
                             source="player", actor_seat=0, created_at=clock.now()))
    with database.write() as session:
        session.add(Snapshot(game_id=game_id, seq=2, state={}, move={}, events=[], submission_id="s-1",
                             source="player", actor_seat=0, created_at=clock.now()))

    with database.read() as session:
        assert session.scalars(select(Snapshot.seq).where(Snapshot.submission_id == "s-1")).all() == [1, 2]


def test_the_servers_ids_never_collide_with_a_players(database: Database, clock: SettableClock) -> None:
    game_id = add_game(database, clock)
    with database.write() as session:
        session.add(Snapshot(game_id=game_id, seq=1, state={}, move={}, events=[], submission_id="bot-1",
                             source="player", actor_seat=0, created_at=clock.now()))

    with database.write() as session:
        session.add(Snapshot(game_id=game_id, seq=2, state={}, move={}, events=[], submission_id="bot-1",
                             source="server", actor_seat=0, created_at=clock.now()))

    with database.read() as session:
        assert len(session.scalars(select(Snapshot).where(Snapshot.submission_id == "bot-1")).all()) == 2


def test_snapshots_are_never_updated_or_deleted(database: Database, clock: SettableClock) -> None:
    add_game(database, clock)

    with pytest.raises(SnapshotIsAppendOnly), database.write() as session:
        session.scalars(select(Snapshot)).one().state = {"rewritten": True}
    with pytest.raises(SnapshotIsAppendOnly), database.write() as session:
        session.delete(session.scalars(select(Snapshot)).one())

    with database.read() as session:
        assert session.scalars(select(Snapshot)).one().state == {"schema": 1}


def test_a_game_gets_a_public_id_that_is_not_guessable(database: Database, clock: SettableClock) -> None:
    add_game(database, clock)
    add_game(database, clock)

    with database.read() as session:
        ids = session.scalars(select(Game.public_id)).all()

    assert len(set(ids)) == 2 and all(len(public_id) >= 20 for public_id in ids)


def test_unknown_statuses_are_refused_by_the_database(database: Database, clock: SettableClock) -> None:
    add_game(database, clock)

    with pytest.raises(IntegrityError), database.write() as session:
        session.scalars(select(Game)).one().status = "wandering"


def test_a_person_needs_an_email_address_a_computer_player_does_not(database: Database, clock: SettableClock) -> None:
    game_id = add_game(database, clock)
    with database.write() as session:
        session.add(Seat(game_id=game_id, seat_index=1, display_name="Bot 1", email=None, is_bot=True))

    with pytest.raises(IntegrityError), database.write() as session:
        session.add(Seat(game_id=game_id, seat_index=2, display_name="Cat", email=None, is_bot=False))


def test_times_come_back_aware_in_utc(database: Database, clock: SettableClock) -> None:
    add_game(database, clock)

    with database.read() as session:
        assert session.scalars(select(Game)).one().created_at == clock.now()
