"""Away time: "away until <date>" holds the seat's deadline back, within a per-game cap, and the table sees it."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from flask.testing import FlaskClient

import engine
from pbem.clock import SettableClock
from pbem.errors import ValidationError
from pbem.runtime import Runtime
from tests.support.database import at
from tests.support.games import PEOPLE, NewGame, seat_to_act, seat_token
from tests.support.mail import mailbox
from tests.support.web import app_runtime, form_fields


def pass_turn(runtime: Runtime, game_id: str) -> None:
    state, seq = runtime.games.engine_state(game_id)
    seat = engine.to_act(state)
    assert seat is not None
    runtime.games.submit_move(game_id, seat, {"type": "pass", "cards": [state.hands[seat][0]]}, seq, f"m{seq}")


def test_away_until_a_date_holds_the_deadline_and_the_reminders_back_until_that_morning(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    game_id = new_game()
    seat = seat_to_act(runtime, game_id)

    back = runtime.presence.set_away(game_id, seat, date(2026, 1, 7))

    assert back == at(2, 8)  # Wednesday, when the seat's quiet hours (22:00-08:00 UTC) end
    # The turn's clock stood still from Monday 09:00 to Wednesday 08:00: 47 hours on top of the 72.
    assert runtime.turn_controls.status(game_id).deadline == at(3, 9) + timedelta(hours=47)
    clock.set(at(2, 7))
    assert runtime.sweep.run().reminders == 0
    clock.set(at(3, 8))  # a day of waiting after the player was back
    assert runtime.sweep.run().reminders == 1
    clock.set(at(5, 8))
    assert runtime.sweep.run().timeouts == 1


def test_away_time_stops_at_the_cap_and_the_normal_deadline_applies_beyond_it(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    game_id = new_game(policies={"away_cap_days": 1})
    seat = seat_to_act(runtime, game_id)

    runtime.presence.set_away(game_id, seat, date(2026, 1, 20))

    status = runtime.turn_controls.status(game_id)
    assert status.deadline == at(3, 9) + timedelta(days=1)
    assert status.seats[seat].away_used == timedelta(days=1)
    clock.set(at(4, 9))
    assert runtime.sweep.run().timeouts == 1


def test_the_cap_counts_every_spell_of_away_time_in_the_game(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    game_id = new_game(policies={"away_cap_days": 3})
    seat = seat_to_act(runtime, game_id)
    runtime.presence.set_away(game_id, seat, date(2026, 1, 7))  # 47 hours of this turn held back
    clock.set(at(2, 8))
    pass_turn(runtime, game_id)
    while seat_to_act(runtime, game_id) != seat:
        pass_turn(runtime, game_id)

    runtime.presence.set_away(game_id, seat, date(2026, 1, 14))  # wants a week; 25 hours of the cap are left

    status = runtime.turn_controls.status(game_id)
    assert status.seats[seat].away_used == timedelta(days=3)
    assert status.deadline == at(2, 8) + timedelta(hours=72 + 25)


def away_until_wednesday_and_back_on_monday_noon(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> tuple[str, int]:
    """The seat to act says it is away until Wednesday, and it is Monday noon (3 hours later): (game, seat)."""
    game_id = new_game()
    seat = seat_to_act(runtime, game_id)
    runtime.presence.set_away(game_id, seat, date(2026, 1, 7))
    clock.set(at(0, 12))
    return game_id, seat


def test_coming_back_early_gives_back_the_unused_away_time(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    game_id, seat = away_until_wednesday_and_back_on_monday_noon(runtime, new_game, clock)

    runtime.presence.set_away(game_id, seat, None)

    status = runtime.turn_controls.status(game_id)
    assert status.seats[seat].away_used == timedelta(hours=3)
    assert status.seats[seat].away_until is None
    assert status.deadline == at(3, 12)


def test_a_date_that_is_not_ahead_is_refused_and_changes_nothing(runtime: Runtime, new_game: NewGame) -> None:
    game_id = new_game()
    seat = seat_to_act(runtime, game_id)

    with pytest.raises(ValidationError, match="after today"):
        runtime.presence.set_away(game_id, seat, date(2026, 1, 5))

    assert runtime.turn_controls.status(game_id).seats[seat].away_until is None


def presence_action(page: str) -> str:
    match = re.search(r'action="([^"]+/presence)"', page)
    assert match
    return match.group(1)


def test_a_player_sets_away_time_on_the_turn_page_and_the_others_see_it_beside_the_name(client: FlaskClient) -> None:
    runtime = app_runtime(client.application)
    game_id = runtime.games.create_game(
        title="Test mine", host_email="host@example.org",
        players=list(PEOPLE),
    )
    runtime.games.start_game(game_id)
    page = client.get(f"/play/{seat_token(runtime, game_id, 0)}", follow_redirects=True).get_data(as_text=True)
    assert "Away until" in page
    action, csrf = presence_action(page), form_fields(page)["csrf_token"]

    saved = client.post(action, data={"csrf_token": csrf, "action": "away", "away_until": "2026-01-09"})
    forged = client.post(action, data={"action": "away", "away_until": "2026-01-10"})

    assert saved.status_code == 303 and forged.status_code == 400
    ben = client.get(f"/play/{seat_token(runtime, game_id, 1)}", follow_redirects=True).get_data(as_text=True)
    assert "away until Fri 9 Jan" in ben
    assert runtime.turn_controls.status(game_id).seats[0].away_until == at(4, 8)
    assert mailbox(runtime, "turn_reminder") == []


def test_marking_the_card_to_discard_on_the_turn_page(client: FlaskClient) -> None:
    runtime = app_runtime(client.application)
    game_id = runtime.games.create_game(
        title="Test mine", host_email="host@example.org",
        players=list(PEOPLE),
    )
    runtime.games.start_game(game_id)
    state, _ = runtime.games.engine_state(game_id)
    page = client.get(f"/play/{seat_token(runtime, game_id, 0)}", follow_redirects=True).get_data(as_text=True)
    card = state.hands[0][2]

    client.post(presence_action(page), data={
        "csrf_token": form_fields(page)["csrf_token"], "action": "timeout_card", "timeout_card": str(card),
    })

    assert f'<option value="{card}" selected>' in client.get(f"/table/{game_id}").get_data(as_text=True)


def test_a_player_sets_their_time_zone_and_quiet_hours_on_the_turn_page(client: FlaskClient) -> None:
    runtime = app_runtime(client.application)
    game_id = runtime.games.create_game(
        title="Test mine", host_email="host@example.org",
        players=list(PEOPLE),
    )
    runtime.games.start_game(game_id)
    seat = seat_to_act(runtime, game_id)
    page = client.get(f"/play/{seat_token(runtime, game_id, seat)}", follow_redirects=True).get_data(as_text=True)

    csrf = form_fields(page)["csrf_token"]

    bad = client.post(presence_action(page), data={
        "csrf_token": csrf, "action": "quiet", "timezone": "Mars/Olympus", "quiet_hours": "23:00-07:00",
    })
    client.post(presence_action(page), data={
        "csrf_token": csrf, "action": "quiet", "timezone": "America/New_York", "quiet_hours": "23:00-07:00",
    })

    assert bad.status_code == 400
    # 72 hours from Monday 09:00 UTC is Thursday 04:00 in New York, inside 23:00-07:00: moved to 07:00 there.
    assert runtime.turn_controls.status(game_id).deadline == at(3, 12)


def test_playing_before_the_away_date_gives_back_the_away_time_not_used(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    game_id, seat = away_until_wednesday_and_back_on_monday_noon(runtime, new_game, clock)

    pass_turn(runtime, game_id)  # the move ends the turn: only the 3 hours it held the deadline back are used

    assert runtime.turn_controls.status(game_id).seats[seat].away_used == timedelta(hours=3)
