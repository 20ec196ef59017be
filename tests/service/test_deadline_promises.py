"""A running deadline keeps its promise: a player's own settings never bring it earlier, the settings forms show
what is in force and save only what was changed, and a deadline that moved says so on every page and email."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from flask.testing import FlaskClient
from sqlalchemy import select

from pbem.clock import SettableClock
from pbem.models import Game, Seat, TurnClock
from pbem.runtime import Runtime
from pbem.service.turns.values import PlayerSpec
from tests.support.mail import flat, mailbox
from tests.support.web import form_fields, open_table, post, sign_in_player

# A 72-hour deadline from this start falls at 02:39 UTC, inside the server's quiet hours (22:00-08:00 UTC).
TURN_BEGINS = datetime(2026, 12, 2, 2, 39, tzinfo=UTC)
PUSHED_TO_MORNING = datetime(2026, 12, 5, 8, 0, tzinfo=UTC)
PEOPLE = [PlayerSpec("Ann", "ann@example.org"), PlayerSpec("Ben", "ben@example.org"),
          PlayerSpec("Cat", "cat@example.org")]


def started_game(runtime: Runtime, clock: SettableClock) -> tuple[str, int]:
    """A game whose first turn began at TURN_BEGINS; its id and the seat to act."""
    clock.set(TURN_BEGINS)
    game_id = runtime.games.create_game(title="Deep mine", players=PEOPLE, host_email="host@example.org")
    runtime.games.start_game(game_id)
    state = runtime.games.current_state(game_id)
    assert state.to_act is not None
    return game_id, state.to_act


def clock_row(runtime: Runtime, game_id: str) -> TurnClock:
    with runtime.db.read() as session:
        pk = session.scalars(select(Game.id).where(Game.public_id == game_id)).one()
        row = session.get(TurnClock, pk)
        assert row is not None
        return row


def seat_row(runtime: Runtime, game_id: str, seat: int) -> Seat:
    with runtime.db.read() as session:
        return session.scalars(
            select(Seat).join(Game).where(Game.public_id == game_id, Seat.seat_index == seat)
        ).one()


def as_shown(page: str) -> dict[str, str]:
    """The fields a settings form sends when its player changes nothing (the hidden ones say what it showed)."""
    shown = form_fields(page)
    return {**shown, "quiet": shown["was_quiet"], "quiet_hours": shown["was_quiet_hours"],
            "timezone": shown["was_timezone"], **({"notify_mode": shown["was_notify_mode"]}
                                                   if "was_notify_mode" in shown else {})}


def presence_path(page: str) -> str:
    found = re.search(r'action="([^"]+/presence)"', page)
    assert found
    return found.group(1)


def test_a_seat_on_the_server_default_quiet_hours_has_its_deadline_moved_to_the_morning(
    runtime_of: Runtime, clock: SettableClock,
) -> None:
    game_id, seat = started_game(runtime_of, clock)

    assert seat_row(runtime_of, game_id, seat).quiet_hours is None
    assert clock_row(runtime_of, game_id).deadline_at == PUSHED_TO_MORNING


def test_choosing_a_time_zone_in_my_games_never_brings_the_running_deadline_earlier(
    client: FlaskClient, runtime_of: Runtime, clock: SettableClock,
) -> None:
    game_id, seat = started_game(runtime_of, clock)
    email = PEOPLE[seat].email
    sign_in_player(client, runtime_of, email)
    shown = as_shown(client.get("/my-games/preferences").get_data(as_text=True))

    saved = post(client, "/my-games/preferences", **{**shown, "timezone": "Asia/Tokyo"})

    assert saved.status_code == 303
    row = seat_row(runtime_of, game_id, seat)
    assert (row.timezone, row.quiet_hours) == ("Asia/Tokyo", None)  # only the time zone was changed
    assert clock_row(runtime_of, game_id).deadline_at == PUSHED_TO_MORNING


def test_the_preferences_form_shows_the_quiet_hours_in_force_not_an_empty_field(
    client: FlaskClient, runtime_of: Runtime, clock: SettableClock,
) -> None:
    game_id, seat = started_game(runtime_of, clock)
    sign_in_player(client, runtime_of, PEOPLE[seat].email)

    page = client.get("/my-games/preferences").get_data(as_text=True)
    home = client.get("/my-games").get_data(as_text=True)

    assert 'name="quiet" value="game" checked' in page
    assert "22:00-08:00" in page
    assert 'placeholder="22:00-08:00"' not in page
    assert "no quiet hours" not in home
    assert "quiet hours as each game sets them" in home


def test_saving_only_the_email_mode_leaves_every_seat_s_time_zone_and_quiet_hours_alone(
    client: FlaskClient, runtime_of: Runtime, clock: SettableClock,
) -> None:
    game_id, seat = started_game(runtime_of, clock)
    runtime_of.presence.set_timing(game_id, seat, timezone_name="Europe/Berlin", quiet_hours="23:00-07:00")
    sign_in_player(client, runtime_of, PEOPLE[seat].email)
    shown = as_shown(client.get("/my-games/preferences").get_data(as_text=True))

    post(client, "/my-games/preferences", **{**shown, "notify_mode": "daily"})

    row = seat_row(runtime_of, game_id, seat)
    assert (row.timezone, row.quiet_hours, row.notify_mode) == ("Europe/Berlin", "23:00-07:00", "digest")


def test_a_time_zone_chosen_on_the_turn_page_never_brings_the_running_deadline_earlier(
    client: FlaskClient, runtime_of: Runtime, clock: SettableClock,
) -> None:
    game_id, seat = started_game(runtime_of, clock)
    page = open_table(client, runtime_of, game_id, seat)

    saved = client.post(presence_path(page), data={**as_shown(page), "action": "quiet", "timezone": "Asia/Tokyo"})

    assert saved.status_code == 303

    assert seat_row(runtime_of, game_id, seat).timezone == "Asia/Tokyo"
    assert clock_row(runtime_of, game_id).deadline_at == PUSHED_TO_MORNING


def test_own_settings_may_move_the_deadline_later_and_the_move_is_shown_and_told(
    client: FlaskClient, runtime_of: Runtime, clock: SettableClock,
) -> None:
    game_id, seat = started_game(runtime_of, clock)
    later = datetime(2026, 12, 5, 9, 30, tzinfo=UTC)

    runtime_of.presence.set_timing(game_id, seat, timezone_name=None, quiet_hours="01:00-09:30")
    clock.advance(timedelta(hours=31))  # past the first reminder, which waited for 09:30
    runtime_of.sweep.run()

    assert clock_row(runtime_of, game_id).deadline_at == later
    page = open_table(client, runtime_of, game_id, seat)
    assert "Moved from Sat 5 Dec, 08:00 UTC" in page
    reminder = mailbox(runtime_of, "turn_reminder", to=PEOPLE[seat].email)[-1]
    assert "it has moved: it was Sat 5 Dec 2026, 08:00 UTC" in flat(reminder.body_text)
    sign_in_player(client, runtime_of, PEOPLE[seat].email)
    assert "Moved from Sat 5 Dec, 08:00 UTC" in client.get("/my-games").get_data(as_text=True)


def test_settings_apply_in_full_from_the_next_turn(runtime_of: Runtime, clock: SettableClock) -> None:
    game_id, seat = started_game(runtime_of, clock)
    runtime_of.presence.set_timing(game_id, seat, timezone_name="Asia/Tokyo")
    assert clock_row(runtime_of, game_id).deadline_at == PUSHED_TO_MORNING

    runtime_of.turn_controls.skip(game_id, actor_email="host@example.org")
    for _ in range(len(PEOPLE) - 1):
        runtime_of.turn_controls.skip(game_id, actor_email="host@example.org")

    assert runtime_of.games.current_state(game_id).to_act == seat
    clock_now = clock.now()
    # 72 hours from now, outside Tokyo's quiet hours (13:00-23:00 UTC) at 02:39 UTC: not pushed to any morning
    assert clock_row(runtime_of, game_id).deadline_at == clock_now + timedelta(hours=72)
