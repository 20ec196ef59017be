"""Reminders: the ladder over simulated days, the last warning, quiet hours in the player's own time zone,
and a scheduler that comes back from a long outage. Time moves by the injected clock, never by sleeping."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select, update

import engine
from pbem.clock import SettableClock
from pbem.models import Game, OutboxMessage, Seat, TurnClock
from pbem.runtime import Runtime
from pbem.service.turns.values import PlayerSpec
from tests.support.database import START, at
from tests.support.games import PEOPLE, NewGame
from tests.support.mail import flat, mailbox

TURN_MAIL = ("turn_reminder", "deadline_warning")


def first_player(runtime: Runtime, game_id: str) -> tuple[int, str]:
    state = runtime.games.current_state(game_id)
    assert state.to_act is not None
    return state.to_act, f"{state.players[state.to_act].lower()}@example.org"


def game_mail(runtime: Runtime, game_id: str, kind: str, to: str) -> list[OutboxMessage]:
    with runtime.db.read() as session:
        game_pk = session.scalars(select(Game.id).where(Game.public_id == game_id)).one()
    return [row for row in mailbox(runtime, kind, to=to) if row.game_id == game_pk]


def sweep_every(
    runtime: Runtime, clock: SettableClock, step: timedelta, until: datetime
) -> list[tuple[datetime, str, str]]:
    """Sweep at every `step` up to `until`; the (time, kind, address) of each email queued meanwhile."""
    seen = {row.id for row in mailbox(runtime)}
    queued = []
    while clock.now() + step <= until:
        clock.advance(step)
        runtime.sweep.run()
        for row in mailbox(runtime):
            if row.id not in seen:
                seen.add(row.id)
                queued.append((clock.now(), row.kind, row.to_address))
    return queued


def test_the_full_ladder_reminds_twice_warns_the_evening_before_and_times_the_turn_out_after_three_days(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    game_id = new_game()
    seat, address = first_player(runtime, game_id)

    queued = sweep_every(runtime, clock, timedelta(minutes=30), at(3, 12))

    to_player = [(when, kind) for when, kind, to in queued if to == address and kind in TURN_MAIL]
    # Reminders 24 h and 48 h after the turn began; the warning 6 h before the Thursday 09:00 deadline falls at
    # 03:00, in the player's quiet hours (22:00-08:00), so it comes at 22:00 the evening before.
    assert to_player == [
        (at(1, 9), "turn_reminder"),
        (at(2, 9), "turn_reminder"),
        (at(2, 22), "deadline_warning"),
    ]
    history = runtime.games.history(game_id)
    assert [entry.created_at for entry in history] == [at(3, 9)]
    assert history[0].actor == seat
    assert history[0].lines[0].endswith("ran out of time: the game discarded a card face down for them.")


def test_a_move_gives_the_next_decision_a_fresh_clock(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    game_id = new_game()
    clock.set(at(1, 9, 30))
    assert runtime.sweep.run().reminders == 1  # the first player's clock has a reminder behind it
    before = turn_clock(runtime, game_id)

    clock.set(at(1, 10))
    state, seq = runtime.games.engine_state(game_id)
    seat = engine.to_act(state)
    assert seat is not None
    runtime.games.submit_move(game_id, seat, {"type": "pass", "cards": [state.hands[seat][0]]}, seq, "pass")

    after = turn_clock(runtime, game_id)
    assert before.reminders_sent == 1 and after.version > before.version
    next_seat = runtime.games.current_state(game_id).to_act
    assert (after.seq, after.seat, after.started_at) == (seq + 1, next_seat, at(1, 10))
    assert (after.reminders_sent, after.last_reminder_at, after.warned, after.timed_out) == (0, None, False, False)
    assert (after.paused_at, after.paused_seconds, after.extended_seconds, after.away_from, after.away_seconds) == (
        None, 0, 0, None, 0
    )
    assert (after.due_at, after.deadline_at) == (at(2, 10), at(4, 10))  # the first reminder a day on; 72 hours


def turn_clock(runtime: Runtime, game_id: str) -> TurnClock:
    with runtime.db.read() as session:
        query = select(TurnClock).join(Game, Game.id == TurnClock.game_id).where(Game.public_id == game_id)
        return session.scalars(query).one()


def test_a_reminder_says_how_long_the_turn_has_waited_and_when_the_deadline_falls(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    game_id = new_game()
    _, address = first_player(runtime, game_id)

    sweep_every(runtime, clock, timedelta(hours=1), at(1, 9))

    reminder = mailbox(runtime, "turn_reminder", to=address)[0]
    assert "has been waiting for your turn for 1 day (since Mon 5 Jan 2026, 09:00 UTC)" in flat(reminder.body_text)
    assert "The deadline is Thu 8 Jan 2026, 09:00 UTC." in reminder.body_text
    assert "discards a card from your hand face down" in reminder.body_text
    assert "This is reminder 1 of 3." in reminder.body_text
    assert "<strong>1 day</strong>" in reminder.body_html


def test_the_turn_email_says_when_the_turn_began_and_when_its_deadline_falls(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    game_id = new_game()
    seat, _ = first_player(runtime, game_id)
    state, seq = runtime.games.engine_state(game_id)
    runtime.games.submit_move(game_id, seat, {"type": "pass", "cards": [state.hands[seat][0]]}, seq, "m0")

    turn = mailbox(runtime, "your_turn")[-1]
    assert "Your turn began Mon 5 Jan 2026, 09:00 UTC." in turn.body_text
    assert "Please play by Thu 8 Jan 2026, 09:00 UTC (3 days to decide)." in flat(turn.body_text)


def game_in_zone(runtime: Runtime, new_game: NewGame, clock: SettableClock, zone_name: str, **policies: object) -> str:
    """A game started at START whose players all live in `zone_name`."""
    game_id = new_game(start=False, policies=policies)
    with runtime.db.write() as session:
        session.execute(
            update(Seat).where(Seat.game_id == select(Game.id).where(Game.public_id == game_id).scalar_subquery())
            .values(timezone=zone_name)
        )
    clock.set(START)
    runtime.games.start_game(game_id)
    return game_id


def test_reminders_wait_for_the_morning_in_each_players_own_time_zone(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    """A reminder due at 23:00 UTC is 18:00 in New York (sent at once) and midnight in Berlin (sent at 07:00
    UTC, 08:00 there, when the quiet hours end)."""
    sent = {}
    for zone_name in ("Europe/Berlin", "America/New_York"):
        game_id = game_in_zone(runtime, new_game, clock, zone_name, reminder_delay_hours=14, deadline_hours=None)
        _, address = first_player(runtime, game_id)
        sweep_every(runtime, clock, timedelta(minutes=15), at(1, 12))
        sent[zone_name] = [row.created_at for row in game_mail(runtime, game_id, "turn_reminder", address)]

    assert sent == {"America/New_York": [at(0, 23)], "Europe/Berlin": [at(1, 7)]}


def test_a_deadline_in_the_players_quiet_hours_moves_to_their_end(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    """A 19-hour deadline falls at Tuesday 04:00 UTC: 05:00 in Berlin (moved to 08:00 there, 07:00 UTC) and 23:00
    on Monday in New York (moved to 08:00 there, 13:00 UTC)."""
    timed_out = {}
    for zone_name in ("Europe/Berlin", "America/New_York"):
        game_id = game_in_zone(runtime, new_game, clock, zone_name, deadline_hours=19, reminder_count=0)
        assert runtime.turn_controls.status(game_id).deadline == (at(1, 7) if "Berlin" in zone_name else at(1, 13))
        sweep_every(runtime, clock, timedelta(minutes=15), at(1, 14))
        timed_out[zone_name] = runtime.games.history(game_id)[0].created_at

    assert timed_out == {"Europe/Berlin": at(1, 7), "America/New_York": at(1, 13)}


def test_a_player_may_set_their_own_quiet_hours(runtime: Runtime, new_game: NewGame, clock: SettableClock) -> None:
    game_id = new_game(start=False, policies={"reminder_delay_hours": 14, "warning_hours": 0})
    with runtime.db.write() as session:
        session.execute(update(Seat).values(quiet_hours=""))  # a night owl: no quiet hours at all
    runtime.games.start_game(game_id)
    _, address = first_player(runtime, game_id)

    sweep_every(runtime, clock, timedelta(minutes=15), at(1, 0))

    assert [row.created_at for row in mailbox(runtime, "turn_reminder", to=address)] == [at(0, 23)]


def test_a_scheduler_back_after_a_long_outage_sends_each_due_reminder_once(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    games = [new_game(policies={"deadline_hours": None}) for _ in range(3)]
    addresses = [first_player(runtime, game_id)[1] for game_id in games]

    clock.set(at(2, 12))  # two and a half days without a sweep: two steps of each ladder are overdue
    first = runtime.sweep.run()
    again = runtime.sweep.run()

    assert (first.reminders, again.reminders) == (3, 0)
    with runtime.db.read() as session:
        rows = session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "turn_reminder")).all()
    assert sorted(row.to_address for row in rows) == sorted(addresses)
    assert all("This is reminder 2 of 3." in row.body_text for row in rows)
    # The ladder goes on from there: the third and last reminder a day after the second was due.
    clock.set(at(3, 9))
    assert runtime.sweep.run().reminders == 3
    clock.set(at(9, 9))
    assert runtime.sweep.run().reminders == 0


def test_computer_seats_get_no_reminders_and_no_deadline(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    new_game([PlayerSpec("Bot 1", is_bot=True), PlayerSpec("Bot 2", is_bot=True), PlayerSpec("Bot 3", is_bot=True)])

    clock.advance(timedelta(days=5))

    assert runtime.sweep.run().total == 0
    assert mailbox(runtime, "turn_reminder") == []


def test_the_sweep_queues_the_daily_digests_that_are_due(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    game_id = new_game(PEOPLE)
    with runtime.db.write() as session:
        session.execute(update(Seat).values(notify_mode="digest"))
    clock.set(at(1, 7, 30))
    assert runtime.sweep.run().digests == 0

    clock.set(at(1, 8))

    assert runtime.sweep.run().digests == 3
    assert runtime.sweep.run().digests == 0
    assert game_id


def test_a_seat_on_the_daily_digest_gets_no_ladder_reminders_but_still_the_last_warning(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    game_id = new_game()
    _, address = first_player(runtime, game_id)
    with runtime.db.write() as session:
        session.execute(update(Seat).where(Seat.email == address).values(notify_mode="digest"))

    queued = sweep_every(runtime, clock, timedelta(minutes=30), at(3, 8))

    assert [(when, kind) for when, kind, to in queued if to == address and kind in TURN_MAIL] == [
        (at(2, 22), "deadline_warning"),
    ]


def test_a_reminder_offers_one_click_unsubscribe_to_the_daily_digest(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    game_id = new_game()
    _, address = first_player(runtime, game_id)

    sweep_every(runtime, clock, timedelta(hours=1), at(1, 10))

    [reminder] = game_mail(runtime, game_id, "turn_reminder", address)
    assert reminder.headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert reminder.headers["List-Unsubscribe"].startswith("<https://pbem.test/")
