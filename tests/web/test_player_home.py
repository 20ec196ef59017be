"""A player's home: the emailed sign-in from the home page, "My games" (only this mailbox's seats, your turn first),
preferences for all games, and a record read from finished rounds only."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select, update

import engine
from pbem.models import Game, OutboxMessage, Seat, TurnClock
from pbem.runtime import Runtime
from pbem.service.players.record import Record, game_record
from pbem.service.turns.values import PlayerSpec
from pbem.words.roles import role_name
from tests.support.games import play_until_turn_of
from tests.support.mail import mailbox
from tests.support.tables import TO_THE_GOALS, arrange, build, card_in_hand
from tests.support.web import post, sign_in_link, sign_in_player, with_csrf


def game_of(players: list[tuple[str, str]], title: str) -> Callable[[Runtime], str]:
    def make(runtime: Runtime) -> str:
        game_id = runtime.games.create_game(
            title=title, players=[PlayerSpec(name, email) for name, email in players], host_email="host@example.org",
        )
        runtime.games.start_game(game_id)
        return game_id
    return make


# -- signing in ------------------------------------------------------------------------------------------


def test_the_sign_in_form_answers_the_same_whether_or_not_the_address_plays(
    client: FlaskClient, runtime_of: Runtime,
) -> None:
    game_of([("Ann", "ann@example.org"), ("Ben", "ben@example.org"), ("Cat", "cat@example.org")], "Mine")(runtime_of)
    with_csrf(client)

    plays = post(client, "/sign-in", email="Ann@Example.org").get_data(as_text=True)
    stranger = post(client, "/sign-in", email="nobody@example.org").get_data(as_text=True)

    assert plays == stranger
    assert len(mailbox(runtime_of, "player_sign_in", to="Ann@Example.org")) == 1
    assert mailbox(runtime_of, "player_sign_in", to="nobody@example.org") == []


def test_a_sign_in_link_signs_in_on_post_only_and_only_once(client: FlaskClient, runtime_of: Runtime) -> None:
    game_of([("Ann", "ann@example.org"), ("Ben", "ben@example.org"), ("Cat", "cat@example.org")], "Mine")(runtime_of)
    with_csrf(client)
    post(client, "/sign-in", email="ann@example.org")
    path = sign_in_link(runtime_of, "ann@example.org")

    assert client.get(path).status_code == 200  # a scanner's GET
    assert client.get("/my-games").status_code == 401
    assert post(client, path).status_code == 303
    assert "Mine" in client.get("/my-games").get_data(as_text=True)

    other = client.application.test_client()
    with_csrf(other)
    assert post(other, path).status_code == 403  # spent
    assert other.get("/my-games").status_code == 401


def test_sign_in_links_are_rate_limited_per_mailbox(client: FlaskClient, runtime_of: Runtime) -> None:
    game_of([("Ann", "ann@example.org"), ("Ben", "ben@example.org"), ("Cat", "cat@example.org")], "Mine")(runtime_of)
    with_csrf(client)
    for address in ["ann@example.org", "ANN@example.org", "ann+x@example.org", "ann+y@example.org"]:
        assert post(client, "/sign-in", email=address).status_code == 200

    with runtime_of.db.read() as session:
        sent = session.scalars(select(OutboxMessage.to_address).where(OutboxMessage.kind == "player_sign_in")).all()
    assert len(sent) == 3


def test_signing_out_ends_the_session_for_good(client: FlaskClient, runtime_of: Runtime) -> None:
    game_of([("Ann", "ann@example.org"), ("Ben", "ben@example.org"), ("Cat", "cat@example.org")], "Mine")(runtime_of)
    sign_in_player(client, runtime_of, "ann@example.org")
    with client.session_transaction() as cookie:
        copied = dict(cookie)

    assert post(client, "/my-games/sign-out").status_code == 303

    with client.session_transaction() as cookie:
        cookie.update(copied)
    assert client.get("/my-games").status_code == 401


def test_a_session_lasts_the_configured_days(client: FlaskClient, runtime_of: Runtime, clock) -> None:
    game_of([("Ann", "ann@example.org"), ("Ben", "ben@example.org"), ("Cat", "cat@example.org")], "Mine")(runtime_of)
    sign_in_player(client, runtime_of, "ann@example.org")
    clock.advance(timedelta(days=runtime_of.config.access.player_session_days, minutes=1))

    assert client.get("/my-games").status_code == 401


# -- my games ------------------------------------------------------------------------------------------


def test_my_games_lists_your_turn_first_by_time_left_then_waiting_then_finished(
    client: FlaskClient, runtime_of: Runtime,
) -> None:
    people = [("Ann", "ann@example.org"), ("Ben", "ben@example.org"), ("Cat", "cat@example.org")]
    later = game_of(people, "Later deadline")(runtime_of)
    waiting = game_of(people, "Waiting game")(runtime_of)
    sooner = game_of(people, "Sooner deadline")(runtime_of)
    over = game_of(people, "Over game")(runtime_of)
    play_until_turn_of(runtime_of, later, 0)
    play_until_turn_of(runtime_of, sooner, 0)
    play_until_turn_of(runtime_of, waiting, 1)
    with runtime_of.db.write() as session:
        session.execute(update(Game).where(Game.public_id == over).values(status="finished"))
    now = runtime_of.clock.now()
    with runtime_of.db.write() as session:
        for game_id, left in [(later, timedelta(days=3)), (sooner, timedelta(hours=5))]:
            game_pk = select(Game.id).where(Game.public_id == game_id).scalar_subquery()
            session.execute(update(TurnClock).where(TurnClock.game_id == game_pk).values(deadline_at=now + left))
    sign_in_player(client, runtime_of, "ann@example.org")

    page = client.get("/my-games").get_data(as_text=True)

    titles = re.findall(r'class="open-game">([^<]+)<', page)
    assert titles == ["Sooner deadline", "Later deadline", "Waiting game", "Over game"]
    assert page.index('id="your-turn"') < page.index('id="waiting"') < page.index('id="finished"')


def test_my_games_shows_only_this_mailbox_seats_each_with_its_own_link(
    client: FlaskClient, runtime_of: Runtime,
) -> None:
    game_of([("Ann", "Ann+games@example.org"), ("Ben", "ben@example.org"), ("Dee", "dee@example.org")],
            "Ann and Ben")(runtime_of)
    game_of([("Ben", "ben@example.org"), ("Cat", "cat@example.org"), ("Dee", "dee@example.org")],
            "Ben and Cat")(runtime_of)
    sign_in_player(client, runtime_of, "ann@example.org")

    page = client.get("/my-games").get_data(as_text=True)

    assert "Ann and Ben" in page and "Ben and Cat" not in page
    links = re.findall(r'href="(https?://[^"]+/play/[^"]+)"', page)
    assert len(links) == 1
    link = runtime_of.links.verify(links[0].rsplit("/play/", 1)[1])
    assert link.seat == 0  # Ann's own seat, nothing wider


def test_a_replaced_player_no_longer_sees_the_game(client: FlaskClient, runtime_of: Runtime) -> None:
    game_id = game_of([("Ann", "ann@example.org"), ("Ben", "ben@example.org"), ("Cat", "cat@example.org")],
                      "Mine")(runtime_of)
    sign_in_player(client, runtime_of, "ann@example.org")
    assert "Mine" in client.get("/my-games").get_data(as_text=True)
    host = runtime_of.host_access.session_for("host@example.org")

    runtime_of.moderation.replace_player(game_id, 0, "Dee", "dee@example.org", host=host)

    page = client.get("/my-games").get_data(as_text=True)
    assert "Mine" not in page and "/play/" not in page


# -- preferences -----------------------------------------------------------------------------------------


def test_preferences_reach_every_running_game_and_new_ones(client: FlaskClient, runtime_of: Runtime) -> None:
    people = [("Ann", "ann@example.org"), ("Ben", "ben@example.org"), ("Cat", "cat@example.org")]
    running = game_of(people, "Running")(runtime_of)
    sign_in_player(client, runtime_of, "ann@example.org")

    saved = post(client, "/my-games/preferences", timezone="Europe/Berlin", quiet_hours="22:00-07:30",
                 notify_mode="daily")
    assert saved.status_code == 303
    later = game_of(people, "Started later")(runtime_of)

    with runtime_of.db.read() as session:
        seats = session.execute(
            select(Game.public_id, Seat.timezone, Seat.quiet_hours, Seat.notify_mode)
            .join(Seat).where(Seat.email == "ann@example.org")
        ).all()
    assert sorted(seats) == sorted([
        (running, "Europe/Berlin", "22:00-07:30", "digest"), (later, "Europe/Berlin", "22:00-07:30", "digest"),
    ])
    # Ann hears of her turns in her daily email now: no turn email for her in the game that started later
    play_until_turn_of(runtime_of, later, 0)
    with runtime_of.db.read() as session:
        later_pk = session.scalar(select(Game.id).where(Game.public_id == later))
        turn_mail = session.scalars(select(OutboxMessage).where(
            OutboxMessage.kind == "your_turn", OutboxMessage.game_id == later_pk,
            OutboxMessage.to_address == "ann@example.org")).all()
    assert turn_mail == []


@pytest.mark.parametrize(("field", "value"), [("timezone", "Mars/Olympus"), ("quiet_hours", "late"),
                                              ("notify_mode", "hourly")])
def test_bad_preferences_are_refused_and_change_nothing(
    client: FlaskClient, runtime_of: Runtime, field: str, value: str,
) -> None:
    game_of([("Ann", "ann@example.org"), ("Ben", "ben@example.org"), ("Cat", "cat@example.org")], "Mine")(runtime_of)
    sign_in_player(client, runtime_of, "ann@example.org")
    fields = {"timezone": "Europe/Berlin", "quiet_hours": "", "notify_mode": "daily", field: value}

    response = post(client, "/my-games/preferences", **fields)

    assert response.status_code == 400
    assert 'id="problem"' in response.get_data(as_text=True)
    with runtime_of.db.read() as session:
        assert session.scalar(select(Seat.timezone).where(Seat.email == "ann@example.org")) == "UTC"


# -- the record ---------------------------------------------------------------------------------------


def test_the_record_counts_a_round_won_by_the_engines_rule_a_trapped_geologist_sharing_the_gold_included() -> None:
    roles = ["boss", "blue_digger", "green_digger", "geologist"]
    options = {"geologists_share_gold": True}
    g = arrange(4, variant="saboteur2", board=TO_THE_GOALS, hands={0: ["straight_ew"]}, gold=(8, 0), turn=0,
                roles=roles, options=options, front={3: ["trapped"]})
    g, _events = engine.apply_move(g, 0, build(card_in_hand(g, 0, "straight_ew"), 7, 0))

    record = Record([game_record("Mine", 3, engine.view(g, 3), finished=False)])

    assert dict(record.rounds_won) == {role_name("geologist"): 1}
    assert record.rounds_as_digger == 1 and record.rounds_as_saboteur == 0


def test_the_record_counts_finished_rounds_by_dwarf_card_and_the_final_score() -> None:
    view = {
        "results": [
            {"round": 1, "winner": "diggers", "roles": ["digger", "saboteur"]},
            {"round": 2, "winner": "saboteurs", "roles": ["saboteur", "digger"]},
            {"round": 3, "winner": "saboteurs", "roles": ["digger", "saboteur"]},
        ],
        "final": {"scores": [7, 5], "winners": [0]},
    }

    record = game_record("Mine", 0, view, finished=True)

    assert dict(record.rounds_won) == {"gold-digger": 1, "saboteur": 1}
    assert record.won and record.gold == 7 and record.rounds_played == 3


def test_the_record_page_reveals_nothing_of_the_round_being_played(client: FlaskClient, runtime_of: Runtime) -> None:
    game_of([("Ann", "ann@example.org"), ("Ben", "ben@example.org"), ("Cat", "cat@example.org")], "Mine")(runtime_of)
    sign_in_player(client, runtime_of, "ann@example.org")

    page = client.get("/my-games").get_data(as_text=True)

    assert re.search(r'id="rounds-saboteur">0<', page) and re.search(r'id="rounds-digger">0<', page)
    assert re.search(r'id="games-played">0<', page)
