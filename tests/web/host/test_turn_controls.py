"""The turn controls from the host's game page: pause and resume, extend the deadline, nudge (once an hour per
seat), skip, auto-pass; each confirmed, CSRF-protected, for the game's host only, audited and told to the table;
the page and the dashboard show the turn's clock and each seat's away time and timeouts."""

from __future__ import annotations

from datetime import timedelta

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select

from pbem.models import Game, HostAction
from pbem.runtime import Runtime
from tests.support.database import dump
from tests.support.games import PEOPLE
from tests.support.mail import mailbox
from tests.support.web import post


def actions(runtime: Runtime, game_id: str) -> list[str]:
    with runtime.db.read() as session:
        game = session.scalar(select(Game).where(Game.public_id == game_id))
        return list(session.scalars(
            select(HostAction.action).where(HostAction.game_id == game.id).order_by(HostAction.id)
        ))


def told(runtime: Runtime, game_id: str) -> list[str]:
    return [line.text for line in runtime.chat.messages(game_id).lines if line.kind == "system"]


def test_pausing_and_resuming_from_the_game_page(host: FlaskClient, runtime_of: Runtime, game_id: str) -> None:
    assert post(host, f"/host/games/{game_id}/pause", confirm="yes").status_code == 303
    assert runtime_of.turn_controls.status(game_id).paused
    page = host.get(f"/host/games/{game_id}").get_data(as_text=True)
    assert "active (paused)" in page and ">Resume<" in page
    assert host.get("/host/games.json").get_json()["games"][0]["paused"] is True
    assert post(host, f"/host/games/{game_id}/pause", confirm="yes").status_code == 409  # already paused

    assert post(host, f"/host/games/{game_id}/resume", confirm="yes").status_code == 303
    assert not runtime_of.turn_controls.status(game_id).paused
    assert actions(runtime_of, game_id)[-2:] == ["pause", "resume"]
    assert told(runtime_of, game_id) == ["The host paused the game.", "The host resumed the game."]


def test_extending_the_deadline_by_whole_hours(host: FlaskClient, runtime_of: Runtime, game_id: str) -> None:
    before = runtime_of.turn_controls.status(game_id).deadline
    assert post(host, f"/host/games/{game_id}/extend", confirm="yes", hours="12").status_code == 303
    assert runtime_of.turn_controls.status(game_id).deadline == before + timedelta(hours=12)
    snapshot = dump(runtime_of.db)
    for hours in ("0", "many", "10000"):
        assert post(host, f"/host/games/{game_id}/extend", confirm="yes", hours=hours).status_code == 400
    assert {k: v for k, v in dump(runtime_of.db).items() if k != "rate_limit_hits"} == {
        k: v for k, v in snapshot.items() if k != "rate_limit_hits"}


def test_a_nudge_at_most_once_an_hour_per_seat(host: FlaskClient, runtime_of: Runtime, game_id: str, clock) -> None:
    seat = runtime_of.games.current_state(game_id).to_act
    page = host.get(f"/host/games/{game_id}").get_data(as_text=True)
    assert page.count(">Nudge<") == 1  # only the seat whose turn it is
    assert post(host, f"/host/games/{game_id}/seats/{seat}/nudge", confirm="yes").status_code == 303
    clock.advance(timedelta(minutes=30))
    too_soon = post(host, f"/host/games/{game_id}/seats/{seat}/nudge", confirm="yes")
    assert too_soon.status_code == 429 and b"less than an hour ago" in too_soon.data
    clock.advance(timedelta(minutes=30))
    assert post(host, f"/host/games/{game_id}/seats/{seat}/nudge", confirm="yes").status_code == 303
    assert len(mailbox(runtime_of, "nudge")) == 2
    other = (seat + 1) % 3
    assert post(host, f"/host/games/{game_id}/seats/{other}/nudge", confirm="yes").status_code == 409


def test_skipping_plays_the_timeout_move(host: FlaskClient, runtime_of: Runtime, game_id: str) -> None:
    seat = runtime_of.games.current_state(game_id).to_act
    assert post(host, f"/host/games/{game_id}/skip", confirm="yes").status_code == 303
    [entry] = runtime_of.games.history(game_id)
    assert entry.actor == seat
    assert actions(runtime_of, game_id)[-1] == "skip"
    assert host.get(f"/host/games/{game_id}.json").get_json()["seats"][seat]["turn"]["timeouts_in_row"] == 1


def test_auto_pass_is_switched_on_and_off_for_a_seat(host: FlaskClient, runtime_of: Runtime, game_id: str) -> None:
    assert post(host, f"/host/games/{game_id}/seats/2/auto-pass", confirm="yes", on="yes").status_code == 303
    assert runtime_of.turn_controls.status(game_id).seats[2].auto_pass
    assert "auto-pass on" in host.get(f"/host/games/{game_id}").get_data(as_text=True)
    assert post(host, f"/host/games/{game_id}/seats/2/auto-pass", confirm="yes", on="no").status_code == 303
    assert not runtime_of.turn_controls.status(game_id).seats[2].auto_pass


@pytest.mark.parametrize("path", ["pause", "resume", "skip", "extend", "seats/0/nudge", "seats/0/auto-pass"])
def test_turn_controls_need_a_confirmation_and_the_csrf_token(
    host: FlaskClient, runtime_of: Runtime, game_id: str, path: str
) -> None:
    before = {k: v for k, v in dump(runtime_of.db).items() if k != "rate_limit_hits"}
    assert post(host, f"/host/games/{game_id}/{path}", hours="5", on="yes").status_code == 200  # asked first
    response = host.post(f"/host/games/{game_id}/{path}", data={"confirm": "yes", "hours": "5", "on": "yes"})
    assert response.status_code == 400
    assert {k: v for k, v in dump(runtime_of.db).items() if k != "rate_limit_hits"} == before


@pytest.mark.parametrize("path", ["pause", "resume", "skip", "extend", "seats/0/nudge", "seats/0/auto-pass"])
def test_turn_controls_on_another_hosts_game_are_forbidden(host: FlaskClient, runtime_of: Runtime, path: str) -> None:
    theirs = runtime_of.games.create_game(title="Not yours", players=PEOPLE, host_email="other@example.org")
    runtime_of.games.start_game(theirs)
    before = {k: v for k, v in dump(runtime_of.db).items() if k != "rate_limit_hits"}
    assert post(host, f"/host/games/{theirs}/{path}", confirm="yes", hours="5", on="yes").status_code == 403
    assert {k: v for k, v in dump(runtime_of.db).items() if k != "rate_limit_hits"} == before


def test_the_dashboard_and_page_show_reminders_and_each_seats_timeouts(
    host: FlaskClient, runtime_of: Runtime, new_game, clock
) -> None:
    game_id = new_game(list(PEOPLE), policies={"reminder_delay_hours": 1})
    clock.advance(timedelta(hours=2))
    runtime_of.sweep.run()
    row = host.get("/host/games.json").get_json()["games"][0]
    assert row["reminders_sent"] == runtime_of.turn_controls.status(game_id).reminders_sent >= 1
    seats = host.get(f"/host/games/{game_id}.json").get_json()["seats"]
    assert [seat["turn"]["timeouts_in_row"] for seat in seats] == [0, 0, 0]
    assert "0 timeouts in a row" in host.get(f"/host/games/{game_id}").get_data(as_text=True)


def test_a_replaced_seat_starts_with_no_timeouts(host: FlaskClient, runtime_of: Runtime, game_id: str) -> None:
    seat = runtime_of.games.current_state(game_id).to_act
    runtime_of.turn_controls.skip(game_id, actor_email="host@example.org")
    assert runtime_of.turn_controls.status(game_id).seats[seat].timeouts_in_row == 1
    post(host, f"/host/games/{game_id}/seats/{seat}/replace", confirm="yes", name="Eve", email="eve@example.org")
    assert runtime_of.turn_controls.status(game_id).seats[seat].timeouts_in_row == 0
