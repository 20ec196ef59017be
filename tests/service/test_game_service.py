"""The game service: creating, starting, moving, reading. Bad input raises a typed error and changes nothing."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from sqlalchemy import event, insert, select, update

import engine
from pbem.clock import SettableClock
from pbem.errors import (
    GameAlreadyStarted,
    GameFinished,
    GameNotFound,
    GameNotStarted,
    GamePaused,
    InvalidMove,
    NotYourTurn,
    RevokedLink,
    SeatNotFound,
    StaleTurn,
    ValidationError,
)
from pbem.models import Game, HostAction, OutboxMessage, Seat, Snapshot
from pbem.runtime import Runtime
from pbem.service.events import describe, is_visible
from pbem.service.turns.values import PlayerSpec
from pbem.words.events import describe_event
from tests.support.database import dump
from tests.support.games import PEOPLE, NewGame, link_token, play_moves, random_move
from tests.support.mail import compose_waiting_mail, listed_items
from tests.support.refusals import told

NAMES = ["Ann", "Ben", "Cat"]



def outbox(runtime: Runtime, kind: str | None = None) -> list[OutboxMessage]:
    with runtime.db.read() as session:
        query = select(OutboxMessage).order_by(OutboxMessage.id)
        if kind is not None:
            query = query.where(OutboxMessage.kind == kind)
        return list(session.scalars(query))


def snapshots(runtime: Runtime) -> list[Snapshot]:
    with runtime.db.read() as session:
        return list(session.scalars(select(Snapshot).order_by(Snapshot.seq)))


def seat_email_map(runtime: Runtime) -> dict[int, int]:
    with runtime.db.read() as session:
        return {seat.id: seat.seat_index for seat in session.scalars(select(Seat))}


# -- creating ------------------------------------------------------------------------------------


def test_a_new_game_waits_to_be_started(runtime: Runtime, new_game: NewGame) -> None:
    game_id = new_game(start=False)

    state = runtime.games.current_state(game_id)

    assert (state.status, state.seq, state.players) == ("created", None, ["Ann", "Ben", "Cat"])
    assert outbox(runtime) == []
    with runtime.db.read() as session:
        game = session.scalars(select(Game)).one()
        assert game.policies == {
            "reminder_delay_hours": 24, "reminder_interval_hours": 24, "reminder_count": 3,
            "deadline_hours": 72, "timeout_policy": "auto-pass", "warning_hours": 6, "quiet_hours": "22:00-08:00",
            "away_cap_days": 7, "absent_after": 2,
        }
        assert [action.action for action in session.scalars(select(HostAction))] == ["create_game"]


@pytest.mark.parametrize(
    ("players", "title", "message"),
    [
        (PEOPLE, "   ", "title"),
        (PEOPLE, "x" * 201, "title"),
        ([*PEOPLE, PlayerSpec("ann", "ann2@example.org")], "T", "different name"),
        ([*PEOPLE[:2], PlayerSpec("Cat", "not-an-address")], "T", "email of Cat"),
        ([*PEOPLE[:2], PlayerSpec("Cat", "a@b, c@d")], "T", "email of Cat"),
        ([*PEOPLE[:2], PlayerSpec("", "cat@example.org")], "T", "name of player 3"),
        (PEOPLE[:2], "T", "3 to 10 players"),
    ],
)
def test_bad_game_settings_are_refused_and_nothing_is_stored(
    runtime: Runtime, players: list[PlayerSpec], title: str, message: str
) -> None:
    before = dump(runtime.db)

    with pytest.raises(ValidationError, match=message):
        runtime.games.create_game(title=title, players=players, host_email="host@example.org")

    assert dump(runtime.db) == before


def test_unknown_variants_options_and_policies_are_refused(runtime: Runtime, new_game: NewGame) -> None:
    with pytest.raises(ValidationError, match="variant"):
        new_game(variant="saboteur-99")
    with pytest.raises(ValidationError, match="option"):
        new_game(options={"free_beer": True})
    with pytest.raises(ValidationError, match="policy"):
        new_game(policies={"reminder_colour": "red"})
    with pytest.raises(ValidationError, match="host email"):
        runtime.games.create_game(title="T", players=PEOPLE, host_email="nobody")


def test_computer_players_need_no_address(runtime: Runtime, new_game: NewGame) -> None:
    game_id = new_game([PEOPLE[0], PlayerSpec("Bot 1", "ignored@example.org", is_bot=True),
                        PlayerSpec("Bot 2", is_bot=True)])

    invites = runtime.games.invites(game_id)

    assert [(i.name, i.email, i.is_bot) for i in invites] == [
        ("Ann", "ann@example.org", False), ("Bot 1", None, True), ("Bot 2", None, True)
    ]


# -- starting ------------------------------------------------------------------------------------


def test_starting_deals_snapshot_zero_and_emails_every_person_their_own_link(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    game_id = new_game([*PEOPLE, PlayerSpec("Bot 1", is_bot=True)])

    state = runtime.games.current_state(game_id)
    emails = outbox(runtime, "game_started")
    seat_of = seat_email_map(runtime)

    assert (state.status, state.seq, state.turn_started_at) == ("active", 0, clock.now())
    assert [snapshot.seq for snapshot in snapshots(runtime)] == [0]
    assert [email.to_address for email in emails] == ["ann@example.org", "ben@example.org", "cat@example.org"]
    for email in emails:
        seat = seat_of[email.seat_id]
        link = next(line for line in email.body_text.splitlines() if "/play/" in line).strip()
        assert runtime.games.resolve_link(link_token(link)).seat == seat
        assert ("You play first" in email.body_text) == (seat == state.to_act)
        assert "1. Ann" in email.body_text and "4. Bot 1 (computer)" in email.body_text


def test_a_game_starts_once(runtime: Runtime, new_game: NewGame) -> None:
    game_id = new_game()
    before = dump(runtime.db)

    with pytest.raises(GameAlreadyStarted):
        runtime.games.start_game(game_id)

    assert dump(runtime.db) == before


def test_each_game_is_dealt_from_its_own_secret_seed(runtime: Runtime, new_game: NewGame) -> None:
    for _ in range(3):
        new_game()

    deals = [snapshot.state for snapshot in snapshots(runtime)]

    assert len(deals) == 3
    assert deals[0] != deals[1] and deals[1] != deals[2] and deals[0] != deals[2]


# -- moving --------------------------------------------------------------------------------------


def test_a_legal_move_becomes_the_next_snapshot(runtime: Runtime, new_game: NewGame, clock: SettableClock) -> None:
    game_id = new_game()
    seat, move, seq = random_move(runtime, game_id, random.Random(1))
    clock.advance(timedelta(hours=5))

    result = runtime.games.submit_move(game_id, seat, move, seq, "first-click")

    latest = snapshots(runtime)[-1]
    state = runtime.games.current_state(game_id)
    assert (result.seq, result.seat, result.replayed) == (1, seat, False)
    assert (latest.seq, latest.move, latest.actor_seat, latest.submission_id) == (1, move, seat, "first-click")
    assert latest.created_at == clock.now() == state.turn_started_at
    assert result.events == [event for event in latest.events if is_visible(event, seat)]
    expected_state, _ = engine.apply_move(engine.Game.from_dict(snapshots(runtime)[0].state), seat, move)
    assert latest.state == expected_state.to_dict()
    assert state.to_act == engine.to_act(expected_state)


def test_the_next_player_is_emailed_what_they_may_see(runtime: Runtime, new_game: NewGame) -> None:
    game_id = new_game()
    rng = random.Random(7)

    for _ in range(12):
        play_moves(runtime, game_id, 1, rng)
        compose_waiting_mail(runtime)  # each email goes out before the next move

    history = snapshots(runtime)
    seat_of = seat_email_map(runtime)
    turn_emails = outbox(runtime, "your_turn")
    assert len(turn_emails) == 12
    for email in turn_emails:
        seat = seat_of[email.seat_id]
        seq = int(email.dedupe_key.rsplit(":", 1)[1])
        assert engine.to_act(engine.Game.from_dict(history[seq].state)) == seat
        own_moves = [s.seq for s in history[1:seq] if s.actor_seat == seat]
        since = [s for s in history if (own_moves[-1] if own_moves else 0) < s.seq <= seq]
        visible = [line for s in since for line in describe([e for e in s.events if is_visible(e, seat)], NAMES, seat)]
        hidden = [describe_event(e, NAMES) for s in history for e in s.events
                  if not is_visible(e, seat)]
        listed = listed_items(email.body_text)
        assert listed == visible
        assert not [line for line in hidden if line not in visible and line in email.body_text]
        assert not [line for line in hidden if line not in visible and line in email.body_html]


def test_a_stale_page_gets_stale_turn_and_changes_nothing(runtime: Runtime, new_game: NewGame) -> None:
    game_id = new_game()
    rng = random.Random(2)
    seat, move, seq = random_move(runtime, game_id, rng)
    runtime.games.submit_move(game_id, seat, move, seq, "a")
    next_seat, next_move, _ = random_move(runtime, game_id, rng)
    before = dump(runtime.db)

    with pytest.raises(StaleTurn):
        runtime.games.submit_move(game_id, next_seat, next_move, seq, "b")

    assert dump(runtime.db) == before


def test_a_repeated_submission_returns_the_first_result_and_applies_nothing(
    runtime: Runtime, new_game: NewGame
) -> None:
    game_id = new_game()
    seat, move, seq = random_move(runtime, game_id, random.Random(3))
    first = runtime.games.submit_move(game_id, seat, move, seq, "double-click")
    before = dump(runtime.db)

    again = runtime.games.submit_move(game_id, seat, move, seq, "double-click")

    assert dump(runtime.db) == before
    assert (again.seq, again.events, again.replayed) == (first.seq, first.events, True)


def test_a_submission_id_is_the_seats_own_another_seat_sending_it_plays_its_own_move(
    runtime: Runtime, new_game: NewGame
) -> None:
    game_id = new_game()
    seat, move, seq = random_move(runtime, game_id, random.Random(3))
    first = runtime.games.submit_move(game_id, seat, move, seq, "mine")
    next_seat, next_move, next_seq = random_move(runtime, game_id, random.Random(4))
    assert next_seat != seat

    theirs = runtime.games.submit_move(game_id, next_seat, next_move, next_seq, "mine")

    assert (theirs.seq, theirs.seat, theirs.replayed) == (first.seq + 1, next_seat, False)
    again = runtime.games.submit_move(game_id, seat, move, seq, "mine")  # the first seat's retry: its own result
    assert (again.seq, again.replayed) == (first.seq, True)


def test_moves_out_of_turn_unknown_seats_and_games_are_refused(runtime: Runtime, new_game: NewGame) -> None:
    game_id = new_game()
    seat, move, seq = random_move(runtime, game_id, random.Random(4))
    before = dump(runtime.db)

    with pytest.raises(NotYourTurn):
        runtime.games.submit_move(game_id, (seat + 1) % 3, move, seq, "x1")
    with pytest.raises(SeatNotFound):
        runtime.games.submit_move(game_id, 3, move, seq, "x2")
    with pytest.raises(SeatNotFound):
        runtime.games.submit_move(game_id, -1, move, seq, "x3")
    with pytest.raises(GameNotFound):
        runtime.games.submit_move("no-such-game", seat, move, seq, "x4")

    assert dump(runtime.db) == before


def test_an_illegal_move_gets_the_engines_explanation(runtime: Runtime, new_game: NewGame) -> None:
    game_id = new_game()
    seat, _, seq = random_move(runtime, game_id, random.Random(5))
    state, _ = runtime.games.engine_state(game_id)
    nonsense = {"type": "teleport"}
    with pytest.raises(engine.IllegalMove) as engine_says:
        engine.apply_move(state, seat, nonsense)
    before = dump(runtime.db)

    with pytest.raises(InvalidMove) as refused:
        runtime.games.submit_move(game_id, seat, nonsense, seq, "x")

    assert refused.value.message == told(engine_says.value)
    assert refused.value.status == 422
    assert dump(runtime.db) == before


@pytest.mark.parametrize(
    ("move", "expected_seq", "submission_id"),
    [("play", 0, "s"), ({}, "0", "s"), ({}, 0, ""), ({}, 0, "x" * 65), ({}, 0, None)],
)
def test_malformed_submissions_are_refused(
    runtime: Runtime, new_game: NewGame, move: object, expected_seq: object, submission_id: object
) -> None:
    game_id = new_game()
    before = dump(runtime.db)

    with pytest.raises(ValidationError):
        runtime.games.submit_move(game_id, 0, move, expected_seq, submission_id)  # type: ignore[arg-type]

    assert dump(runtime.db) == before


def test_moves_wait_for_the_start(runtime: Runtime, new_game: NewGame) -> None:
    game_id = new_game(start=False)

    with pytest.raises(GameNotStarted):
        runtime.games.submit_move(game_id, 0, {"type": "pass"}, 0, "early")


def test_a_paused_game_takes_no_moves(runtime: Runtime, new_game: NewGame) -> None:
    game_id = new_game()
    seat, move, seq = random_move(runtime, game_id, random.Random(6))
    with runtime.db.write() as session:  # as the host's pause (a later issue) will do
        session.execute(update(Game).values(paused=True))
    before = dump(runtime.db)

    with pytest.raises(GamePaused):
        runtime.games.submit_move(game_id, seat, move, seq, "while-paused")

    assert dump(runtime.db) == before


def test_a_whole_game_plays_to_the_end_and_then_takes_no_moves(runtime: Runtime, new_game: NewGame) -> None:
    game_id = new_game()
    rng = random.Random(11)
    result = None
    while runtime.games.current_state(game_id).to_act is not None:
        seat, move, seq = random_move(runtime, game_id, rng)
        result = runtime.games.submit_move(game_id, seat, move, seq, f"m{seq}")

    final = runtime.games.current_state(game_id)
    state, seq = runtime.games.engine_state(game_id)
    assert result is not None and result.game_over
    assert (final.status, final.scores) == ("finished", engine.scores(state))
    assert [s.seq for s in snapshots(runtime)] == list(range(seq + 1))
    with pytest.raises(GameFinished):
        runtime.games.submit_move(game_id, 0, {"type": "pass"}, seq, "too-late")


# -- reading -------------------------------------------------------------------------------------


def test_each_seat_sees_its_own_view_and_only_its_own_legal_moves(runtime: Runtime, new_game: NewGame) -> None:
    game_id = new_game()
    play_moves(runtime, game_id, 4, random.Random(8))
    state, _ = runtime.games.engine_state(game_id)

    for seat in range(3):
        seen = runtime.games.current_state(game_id, seat)
        assert seen.view == engine.view(state, seat)
        assert seen.legal_moves == (engine.legal_moves(state, seat) if seat == engine.to_act(state) else [])
    onlooker = runtime.games.current_state(game_id)
    assert onlooker.view == engine.view(state, None) and onlooker.legal_moves == []
    with pytest.raises(SeatNotFound):
        runtime.games.current_state(game_id, 5)
    with pytest.raises(GameNotFound):
        runtime.games.current_state("nope")


def test_history_shows_each_seat_public_events_and_its_own_private_ones(runtime: Runtime, new_game: NewGame) -> None:
    game_id = new_game()
    play_moves(runtime, game_id, 9, random.Random(9))
    stored = snapshots(runtime)[1:]

    for seat in (None, 0, 1, 2):
        history = runtime.games.history(game_id, seat)
        assert [entry.seq for entry in history] == [s.seq for s in stored]
        for entry, snapshot in zip(history, stored, strict=True):
            assert entry.actor == snapshot.actor_seat
            assert entry.lines == describe([e for e in snapshot.events if is_visible(e, seat)], NAMES, seat)
    private = [e for s in stored for e in s.events if e["audience"] != "public"]
    assert private, "random play draws cards, which are private events"
    seat = private[0]["audience"][0]
    public_lines = [entry.lines for entry in runtime.games.history(game_id, None)]
    own_lines = [entry.lines for entry in runtime.games.history(game_id, seat)]
    assert public_lines != own_lines  # the seat's own history tells it what it drew; the public one does not


# -- links ---------------------------------------------------------------------------------------


def test_a_link_stops_working_when_its_seat_version_moves_on(runtime: Runtime, new_game: NewGame) -> None:
    game_id = new_game()
    token = link_token(runtime.games.invites(game_id)[1].link)
    assert runtime.games.resolve_link(token).seat == 1

    with runtime.db.write() as session:  # as "rotate link" (a later issue) will do
        session.execute(update(Seat).where(Seat.seat_index == 1).values(token_version=Seat.token_version + 1))

    with pytest.raises(RevokedLink):
        runtime.games.resolve_link(token)
    assert runtime.games.resolve_link(link_token(runtime.games.invites(game_id)[1].link)).seat == 1


@pytest.mark.parametrize("theirs", ["another-submission", "ours"])
def test_the_unique_constraints_are_the_final_guard(
    runtime: Runtime, new_game: NewGame, clock: SettableClock, theirs: str
) -> None:
    """Another writer commits between our read and our insert: a different submission makes ours stale,
    the same submission (a retried POST racing itself) gives back its result."""
    if runtime.db.is_sqlite:
        pytest.skip("SQLite's write lock leaves no moment between our read and our insert")
    game_id = new_game()
    seat, move, seq = random_move(runtime, game_id, random.Random(12))
    with runtime.db.read() as session:
        game_pk = session.scalar(select(Game.id).where(Game.public_id == game_id))
    fired: list[bool] = []

    def another_writer_commits_first(_connection: object, _cursor: object, statement: str, *_: object) -> None:
        if not fired and statement.startswith("INSERT INTO snapshots"):
            fired.append(True)
            with runtime.db.engine.begin() as other:
                other.execute(insert(Snapshot).values(
                    game_id=game_pk, seq=seq + 1, state={}, move=move, events=[], actor_seat=seat,
                    submission_id=theirs, source="player", created_at=clock.now()))

    event.listen(runtime.db.engine, "before_cursor_execute", another_writer_commits_first)
    try:
        if theirs == "ours":
            result = runtime.games.submit_move(game_id, seat, move, seq, "ours")
            assert (result.seq, result.replayed) == (seq + 1, True)
        else:
            with pytest.raises(StaleTurn):
                runtime.games.submit_move(game_id, seat, move, seq, "ours")
    finally:
        event.remove(runtime.db.engine, "before_cursor_execute", another_writer_commits_first)
    assert fired

    assert [s.submission_id for s in snapshots(runtime)] == [None, theirs]
    assert outbox(runtime, "your_turn") == []
