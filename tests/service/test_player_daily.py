"""One daily email across games: at the morning hour in the player's zone, after their quiet hours, once a day, the
games where it is their turn by time left, and none when nothing happened; no digest per game, no turn emails."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import select, update

from pbem.clock import SettableClock
from pbem.models import Game, OutboxMessage, TurnClock
from pbem.runtime import Runtime
from pbem.service.players.access import player
from pbem.service.players.preferences import Preferences
from tests.support.games import PEOPLE, play_until_turn_of
from tests.support.mail import mailbox

DAY_ONE = datetime(2026, 1, 5, tzinfo=UTC)


def started(runtime: Runtime, title: str) -> str:
    game_id = runtime.games.create_game(
        title=title, players=list(PEOPLE), host_email="host@example.org",
    )
    runtime.games.start_game(game_id)
    return game_id


def deadline_in(runtime: Runtime, game_id: str, left: timedelta) -> None:
    with runtime.db.write() as session:
        game_pk = select(Game.id).where(Game.public_id == game_id).scalar_subquery()
        session.execute(update(TurnClock).where(TurnClock.game_id == game_pk)
                        .values(deadline_at=runtime.clock.now() + left))


def dailies(runtime: Runtime, to: str) -> list[OutboxMessage]:
    return mailbox(runtime, "player_daily", to=to)


def sweep_at(runtime: Runtime, clock: SettableClock, when: datetime) -> None:
    clock.set(when)
    runtime.sweep.run()


def test_one_email_a_day_lists_your_turns_by_time_left_after_the_morning_and_quiet_hours(
    runtime: Runtime, clock: SettableClock,
) -> None:
    later, sooner = started(runtime, "Later deadline"), started(runtime, "Sooner deadline")
    for game_id in (later, sooner):
        play_until_turn_of(runtime, game_id, 0)
    runtime.player_home.set_preferences(player("ann@example.org"), Preferences(
        timezone="America/New_York", quiet_hours="06:00-09:00", notify_mode="daily"))
    deadline_in(runtime, later, timedelta(days=3))
    deadline_in(runtime, sooner, timedelta(days=1))

    sweep_at(runtime, clock, DAY_ONE + timedelta(hours=12))  # 07:00 in New York: quiet hours
    assert dailies(runtime, "ann@example.org") == []
    sweep_at(runtime, clock, DAY_ONE + timedelta(hours=14, minutes=5))  # 09:05 in New York
    sweep_at(runtime, clock, DAY_ONE + timedelta(hours=20))  # the same day again

    sent = dailies(runtime, "ann@example.org")
    assert len(sent) == 1
    text = sent[0].body_text
    assert text.index("Sooner deadline") < text.index("Later deadline")
    assert "YOUR TURN" in text and "/play/" in text and "America/New_York" not in sent[0].subject
    assert mailbox(runtime, "daily_digest", to="ann@example.org") == []  # no digest per game besides it


def test_the_morning_hour_is_the_players_own_across_time_zones(runtime: Runtime, clock: SettableClock) -> None:
    game_id = started(runtime, "Far apart")
    play_until_turn_of(runtime, game_id, 1)
    runtime.player_home.set_preferences(player("ben@example.org"), Preferences(timezone="Asia/Tokyo",
                                                                               notify_mode="daily"))
    runtime.player_home.set_preferences(player("cat@example.org"), Preferences(timezone="America/Los_Angeles",
                                                                               notify_mode="daily"))

    sweep_at(runtime, clock, DAY_ONE + timedelta(hours=14))  # 23:00 in Tokyo; 06:00 in Los Angeles

    assert len(dailies(runtime, "ben@example.org")) == 1
    assert dailies(runtime, "cat@example.org") == []  # not before her morning
    sweep_at(runtime, clock, DAY_ONE + timedelta(hours=16, minutes=1))  # 08:01 in Los Angeles
    assert len(dailies(runtime, "cat@example.org")) == 1


def test_no_email_when_nothing_happened_and_it_is_not_your_turn(runtime: Runtime, clock: SettableClock) -> None:
    game_id = started(runtime, "Quiet game")
    play_until_turn_of(runtime, game_id, 2)  # others moved: Cat is to play
    runtime.player_home.set_preferences(player("ben@example.org"), Preferences(notify_mode="daily"))

    sweep_at(runtime, clock, DAY_ONE + timedelta(hours=9))
    sweep_at(runtime, clock, DAY_ONE + timedelta(days=1, hours=9))  # nothing moved since

    assert len(dailies(runtime, "ben@example.org")) == 1


def test_a_player_with_the_daily_email_gets_no_turn_emails(runtime: Runtime) -> None:
    game_id = started(runtime, "Turns")
    runtime.player_home.set_preferences(player("ann@example.org"), Preferences(notify_mode="daily"))
    before = len(mailbox(runtime, "your_turn", to="ann@example.org"))

    play_until_turn_of(runtime, game_id, 1)
    play_until_turn_of(runtime, game_id, 0)

    assert len(mailbox(runtime, "your_turn", to="ann@example.org")) == before
