"""The host's new-game form, dashboard and game page: validation next to each field, nothing created until
valid; a host sees only their own games (an admin all), and another host's game answers 403."""

from __future__ import annotations

import dataclasses
import io
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select, update

import pbem.db as db_module
from pbem.config import AccessConfig, Config
from pbem.errors import RateLimited
from pbem.models import Game, HostAction, OutboxMessage, Seat
from pbem.service.host.host_access import HostSession
from pbem.service.host.hosting import PER_HOST_GAMES
from pbem.service.turns.values import PlayerSpec
from pbem.web.host.actions import GAME_ACTIONS, SEAT_ACTIONS
from pbem.web.host.forms import policy_fields
from tests.support.database import counted, dump
from tests.support.games import PEOPLE
from tests.support.mail import mailbox
from tests.support.web import CSRF, HOST, app_runtime, built_app, post, redirected_id, sign_in, with_csrf

PLAYERS = {"name_0": "Ann", "email_0": "ann@example.org", "name_1": "Ben", "email_1": "ben@example.org",
           "name_2": "Cat", "email_2": "cat@example.org", "name_3": "Dan", "email_3": "dan@example.org"}


def form(**fields: Any) -> dict[str, Any]:
    defaults = {f"policy_{p.name}": p.shown(p.default) for p in policy_fields() if p.kind != "flag" or p.default}
    base = {"title": "Friday mine", "join": "list", "variant": "base", "order": "listed", "bots": "0",
            **defaults, **PLAYERS}
    base.update(fields)
    return {key: value for key, value in base.items() if value is not None}


def games(app: Flask) -> int:
    with app_runtime(app).db.read() as session:
        return session.scalar(select(func.count()).select_from(Game)) or 0


def test_the_form_creates_and_starts_a_game_and_emails_every_player(host: FlaskClient, app: Flask) -> None:
    response = post(host, "/host/new", **form())
    assert response.status_code == 303
    game_id = redirected_id(response)
    state = app_runtime(app).games.current_state(game_id)
    assert state.status == "active" and state.players == ["Ann", "Ben", "Cat", "Dan"]
    assert sorted(m.to_address for m in mailbox(app_runtime(app), "game_started")) == [
        "ann@example.org", "ben@example.org", "cat@example.org", "dan@example.org"]
    assert b"Friday mine" in host.get("/host").data


def test_the_host_may_play_and_computer_players_fill_seats(host: FlaskClient, app: Flask) -> None:
    fields = form(host_plays="yes", host_name="Hilda", bots="2", name_3=None, email_3=None)
    response = post(host, "/host/new", **fields)
    assert response.status_code == 303
    game_id = redirected_id(response)
    invites = app_runtime(app).games.invites(game_id)
    assert [(i.name, i.email, i.is_bot) for i in invites] == [
        ("Hilda", HOST, False), ("Ann", "ann@example.org", False), ("Ben", "ben@example.org", False),
        ("Cat", "cat@example.org", False), ("Bot 1", None, True), ("Bot 2", None, True)]


def test_a_shuffled_seating_keeps_everyone(host: FlaskClient, app: Flask) -> None:
    response = post(host, "/host/new", **form(order="shuffled"))
    game_id = redirected_id(response)
    assert sorted(app_runtime(app).games.current_state(game_id).players) == ["Ann", "Ben", "Cat", "Dan"]


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"title": ""}, "title", "Give the game a title"),
        ({"email_1": "ben at example"}, "email_1", "no spaces"),
        ({"email_1": "ben@example"}, "email_1", "The part after the @ needs a dot"),
        ({"email_1": "ben.example.org"}, "email_1", "has an @ in it"),
        ({"email_1": "ben@@example.org"}, "email_1", "only one @"),
        ({"email_1": "ben@example..org"}, "email_1", "misplaced dot"),
        ({"email_2": "ANN@example.org"}, "email_2", "already in the game"),
        ({"name_2": "ann"}, "name_2", "different name"),
        ({"name_1": ""}, "name_1", "A name is needed"),
        ({"name_2": None, "email_2": None, "name_3": None, "email_3": None}, "players", "takes 3 to 10 players"),
        ({**{f"name_{n}": f"P{n}" for n in range(4, 12)}, **{f"email_{n}": f"p{n}@example.org" for n in range(4, 12)}},
         "players", "takes 3 to 10 players"),
        ({"variant": "chess"}, "variant", "Unknown variant"),
        ({"bots": "many"}, "bots", "computer players"),
        ({"policy_deadline_hours": "0"}, "policy_deadline_hours", "at least 1"),
        ({"policy_reminder_count": "three"}, "policy_reminder_count", "whole number"),
        ({"policy_timeout_policy": "shrug"}, "policy_timeout_policy", "must be one of"),
        ({"policy_colour": "red"}, "policies", "Unknown options: colour"),
        ({"host_plays": "yes", "host_name": ""}, "host_name", "Your name"),
        ({"host_plays": "yes", "host_name": "You", "name_3": None, "email_3": None}, "host_name",
         "cannot be a player"),
        ({"name_1": "someone"}, "name_1", "cannot be a player"),
        ({"host_plays": "yes", "host_name": "Hilda", "email_3": HOST}, "email_3", "already in the game"),
        ({"policy_quiet_hours": "late"}, "policy_quiet_hours", "written like 22:00-08:00"),
    ],
)
def test_bad_input_is_shown_next_to_its_field_and_nothing_is_created(
    host: FlaskClient, app: Flask, fields: dict[str, Any], field: str, message: str
) -> None:
    before = dump(app_runtime(app).db)
    response = post(host, "/host/new", **form(**fields))
    assert response.status_code == 422
    shown = re.search(rf'id="error-{field}"[^>]*>([^<]*)<', response.get_data(as_text=True))
    assert shown and message in shown.group(1), response.get_data(as_text=True)[:3000]
    after = dump(app_runtime(app).db)
    assert {k: v for k, v in after.items() if k != "rate_limit_hits"} == {
        k: v for k, v in before.items() if k != "rate_limit_hits"}


def test_saboteur_2_takes_two_players(host: FlaskClient, app: Flask) -> None:
    response = post(host, "/host/new", **form(variant="saboteur2", name_2=None, email_2=None, name_3=None,
                                                   email_3=None))
    assert response.status_code == 303


def test_the_form_shows_every_policy_of_the_configuration(host: FlaskClient) -> None:
    page = host.get("/host/new").get_data(as_text=True)
    for policy in dataclasses.fields(__import__("pbem.config", fromlist=["PolicyConfig"]).PolicyConfig):
        assert f'name="policy_{policy.name}"' in page


def test_creating_without_the_csrf_token_is_refused(host: FlaskClient, app: Flask) -> None:
    fields = form()
    response = host.post("/host/new", data=fields)
    assert response.status_code == 400
    assert games(app) == 0


def test_the_host_pages_need_a_signed_in_host(client: FlaskClient, app: Flask, new_game) -> None:
    game_id = new_game()
    with_csrf(client)
    assert client.get("/host/new").status_code == 401
    assert client.get(f"/host/games/{game_id}").status_code == 401
    assert client.get("/host/games.json").status_code == 401
    assert post(client, f"/host/games/{game_id}/abandon", confirm="yes").status_code == 401


def test_a_host_sees_their_games_and_not_another_hosts(client: FlaskClient, app: Flask, new_game) -> None:
    mine = new_game()
    runtime = app_runtime(app)
    theirs = runtime.games.create_game(
        title="Not yours", players=[dataclasses.replace(p) for p in PEOPLE],
        host_email="other@example.org")
    sign_in(client, runtime, HOST)
    listed = [game["id"] for game in client.get("/host/games.json").get_json()["games"]]
    assert listed == [mine]
    assert client.get(f"/host/games/{theirs}").status_code == 403
    assert client.get(f"/host/games/{theirs}.json").status_code == 403
    assert client.get(f"/host/games/{theirs}/export.json").status_code == 403
    before = dump(runtime.db)
    fields = {"reason": "x", "hours": "2", "to": "0", "order": "rotated", "allowed": "yes", "on": "yes",
              "name": "Eve", "email": "eve@example.org", "note": "Hurry"}
    for action in GAME_ACTIONS:
        assert post(client, f"/host/games/{theirs}/{action}", confirm="yes", **fields).status_code == 403, action
    for action in SEAT_ACTIONS:
        response = post(client, f"/host/games/{theirs}/seats/0/{action}", confirm="yes", **fields)
        assert response.status_code == 403, action
    assert post(client, f"/host/games/{theirs}/say", text="Hello").status_code == 403
    assert dump(runtime.db) == before


@pytest.fixture
def admin_app(config: Config, clock, chance) -> Flask:
    access = AccessConfig(admin_emails=("root@example.org",))
    yield from built_app(dataclasses.replace(config, access=access), clock, chance)


def test_an_admin_sees_every_game(admin_app: Flask) -> None:
    runtime = app_runtime(admin_app)
    one = runtime.games.create_game(title="One", players=PEOPLE, host_email="a@example.org")
    two = runtime.games.create_game(title="Two", players=PEOPLE, host_email="b@example.org")
    client = admin_app.test_client()
    sign_in(client, runtime, "root@example.org")
    assert {game["id"] for game in client.get("/host/games.json").get_json()["games"]} == {one, two}
    assert client.get(f"/host/games/{one}").status_code == 200


def test_the_dashboard_shows_status_whose_turn_and_mail_problems(host: FlaskClient, app: Flask, new_game) -> None:
    game_id = new_game()
    row = host.get("/host/games.json").get_json()["games"][0]
    state = app_runtime(app).games.current_state(game_id)
    assert row["status"] == "active" and row["round"] == 1
    assert row["to_act"] == state.players[state.to_act]
    assert row["deadline"] is not None and row["mail_trouble"] == []
    page = host.get("/host").get_data(as_text=True)
    assert "Test mine" in page and state.players[state.to_act] in page


@pytest.mark.parametrize("in_list_limit", [db_module.IN_LIST_LIMIT, 1], ids=["together", "in-slices"])
def test_the_dashboard_tells_each_game_its_own_round_and_mail_trouble(
    host: FlaskClient, app: Flask, new_game, monkeypatch: pytest.MonkeyPatch, in_list_limit: int
) -> None:
    monkeypatch.setattr(db_module, "IN_LIST_LIMIT", in_list_limit)
    runtime = app_runtime(app)
    quiet, troubled = new_game(), new_game()
    runtime.db.memo.clear()  # the states are read from the database, in one statement or one per slice
    with runtime.db.write() as session:
        seat = session.scalars(
            select(Seat).join(Game, Game.id == Seat.game_id).where(Game.public_id == troubled, Seat.seat_index == 1)
        ).one()
        session.execute(
            update(OutboxMessage).where(OutboxMessage.seat_id == seat.id)
            .values(status="failed", last_error="550 no such mailbox", claimed_at=runtime.clock.now(), attempts=1)
        )
        name = seat.display_name

    rows = {row["id"]: row for row in host.get("/host/games.json").get_json()["games"]}

    assert (rows[troubled]["mail_trouble"], rows[quiet]["mail_trouble"]) == ([name], [])
    assert rows[troubled]["round"] == rows[quiet]["round"] == 1


def test_the_dashboard_reads_as_many_statements_for_five_games_as_for_one(
    host: FlaskClient, app: Flask, new_game
) -> None:
    runtime = app_runtime(app)
    new_game()
    runtime.db.memo.clear()  # nothing decoded yet: the states are read too
    with counted(runtime) as for_one:
        assert len(host.get("/host/games.json").get_json()["games"]) == 1
    for _ in range(4):
        new_game()
    runtime.db.memo.clear()

    with counted(runtime) as for_five:
        listed = host.get("/host/games.json").get_json()["games"]

    assert len(listed) == 5
    assert len(for_five) == len(for_one), for_five


def test_the_game_page_shows_the_public_board_log_and_seats(host: FlaskClient, app: Flask, new_game) -> None:
    game_id = new_game()
    page = host.get(f"/host/games/{game_id}").get_data(as_text=True)
    assert "<svg" in page and "ann@example.org" in page and "Host actions" in page
    data = host.get(f"/host/games/{game_id}.json").get_json()
    assert data["view"]["seat"] is None and "you" not in data["view"]
    assert [seat["name"] for seat in data["seats"]] == ["Ann", "Ben", "Cat"]
    with app_runtime(app).db.read() as session:
        assert session.scalar(select(func.count()).select_from(HostAction)) == 2  # create, start


def test_the_engines_options_are_chosen_on_the_form(host: FlaskClient, app: Flask) -> None:
    response = post(host, "/host/new", **form(option_auto_pick_gold="on", option_digger_gold_cards="diggers"))
    assert response.status_code == 303
    game_id = redirected_id(response)
    options = app_runtime(app).games.current_state(game_id).view["options"]
    assert options == {"auto_pick_gold": True, "digger_gold_cards": "diggers", "play_out_hands": False,
                       "recap_private_moves": True}


def test_the_form_says_what_each_rule_option_changes_and_a_host_may_keep_round_secrets(
    host: FlaskClient, app: Flask
) -> None:
    page = host.get("/host/new").get_data(as_text=True)
    assert 'Geologists share gold <span class="tag">Saboteur 2</span>' in page and "Recap private moves" in page
    assert "what each map showed and which cards went face down" in page and "never reveal these" in page

    response = post(host, "/host/new", **form(option_recap_private_moves="off",
                                                   option_geologists_share_gold="on"))

    assert response.status_code == 303  # a Saboteur 2 option on a base game is left out, not refused
    options = app_runtime(app).games.current_state(redirected_id(response)).view["options"]
    assert options["recap_private_moves"] is False and "geologists_share_gold" not in options


def test_an_unknown_option_value_is_shown_next_to_its_field(host: FlaskClient, app: Flask) -> None:
    response = post(host, "/host/new", **form(option_auto_pick_gold="sometimes"))
    assert response.status_code == 422 and b'id="error-option_auto_pick_gold"' in response.data
    assert games(app) == 0


def upload(host: FlaskClient, deck: bytes, **fields: Any) -> Any:
    data = {"csrf_token": CSRF, **form(**fields),
            "deck": (io.BytesIO(deck), "deck.toml")}
    return host.post("/host/new", data=data, content_type="multipart/form-data")


def test_a_saboteur_2_host_may_bring_their_own_deck(host: FlaskClient, app: Flask) -> None:
    from pbem.paths import REPO_ROOT
    deck = (REPO_ROOT / "docs" / "decks" / "saboteur2.toml").read_bytes()
    response = upload(host, deck, variant="saboteur2")
    assert response.status_code == 303
    game_id = redirected_id(response)
    with app_runtime(app).db.read() as session:
        assert "deck" in session.scalar(select(Game.options).where(Game.public_id == game_id))


def test_a_deck_that_is_not_toml_is_shown_next_to_its_field(host: FlaskClient, app: Flask) -> None:
    response = upload(host, b"[[paths]\nnot toml", variant="saboteur2")
    assert response.status_code == 422 and b'id="error-deck"' in response.data and b"not valid TOML" in response.data
    assert games(app) == 0


def test_game_creation_is_rate_limited_per_host(host: FlaskClient, app: Flask) -> None:
    answers = [post(host, "/host/new", **form(title=f"Mine {n}")).status_code for n in range(11)]
    assert answers == [303] * 10 + [429]
    assert games(app) == 10


def test_a_hosts_plus_addresses_share_one_daily_limit_on_games(app: Flask) -> None:
    runtime = app_runtime(app)
    players = [PlayerSpec(name, f"{name.lower()}@example.org") for name in ("Ann", "Ben", "Cat")]

    def create(n: int) -> str:
        return runtime.hosting.create_and_start(
            host=HostSession(f"host+{n}@example.org", is_admin=False), title=f"Mine {n}", players=players,
            variant="base", options=None, policies={}, client="203.0.113.5",
        )

    for n in range(PER_HOST_GAMES.count):
        create(n)
    with pytest.raises(RateLimited):
        create(PER_HOST_GAMES.count)
    assert games(app) == PER_HOST_GAMES.count


# -- who may create games, and how many strangers they may have emailed ------------------------------------------


def test_by_default_only_the_servers_admins_may_create_games(config: Config, clock, chance) -> None:
    default = dataclasses.replace(config, mode="production", access=AccessConfig(admin_emails=("root@example.org",)))
    for app in built_app(default, clock, chance):
        runtime = app_runtime(app)
        stranger = app.test_client()
        with_csrf(stranger)
        assert post(stranger, "/host", email="eve@example.org").status_code == 200
        assert mailbox(runtime, "host_link", to="eve@example.org") == []
        admin = app.test_client()
        sign_in(admin, runtime, "root@example.org")
        assert admin.get("/host/new").status_code == 200


@pytest.fixture
def few_invitations(config: Config, clock, chance) -> Flask:
    access = dataclasses.replace(config.access, invitations_per_client_per_day=5, invitations_per_day=8)
    yield from built_app(dataclasses.replace(config, access=access), clock, chance)


def new_players(*emails: str) -> dict[str, str]:
    fields = {f"name_{n}": None for n in range(4)} | {f"email_{n}": None for n in range(4)}
    for n, email in enumerate(emails):
        fields[f"name_{n}"], fields[f"email_{n}"] = f"Player {n}", email
    return fields


def host_at(app: Flask, address: str) -> FlaskClient:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    sign_in(client, app_runtime(app))
    return client


def test_mail_to_addresses_that_never_confirmed_is_limited_per_client_and_for_the_server(
    few_invitations: Flask,
) -> None:
    app = few_invitations
    first, second, third = (host_at(app, f"203.0.113.{n}") for n in (1, 2, 3))
    assert post(first, "/host/new", **form(**new_players(*(f"a{n}@example.org" for n in range(4))))).status_code == 303

    too_many = post(first, "/host/new", **form(**new_players(*(f"b{n}@example.org" for n in range(4)))))

    assert too_many.status_code == 429
    assert "would email 4 addresses that never played here" in too_many.get_data(as_text=True)
    assert 'value="b0@example.org"' in too_many.get_data(as_text=True)  # the form is kept
    assert games(app) == 1
    assert mailbox(app_runtime(app), "game_started", to="b0@example.org") == []
    assert post(second, "/host/new", **form(**new_players(*(f"b{n}@example.org" for n in range(4))))).status_code == 303
    refused = post(third, "/host/new", **form(**new_players(*(f"c{n}@example.org" for n in range(4)))))
    assert refused.status_code == 429 and "as many new addresses today" in refused.get_data(as_text=True)
    assert games(app) == 2


def test_plus_tags_of_one_mailbox_count_as_one_invitation(few_invitations: Flask) -> None:
    client = host_at(few_invitations, "203.0.113.1")
    aliases = new_players("zed+a@example.org", "zed+b@example.org", "Zed+c@example.org", "zed@example.org")
    assert post(client, "/host/new", **form(**aliases)).status_code == 303
    fresh = new_players("y0@example.org", "y1@example.org", "y2@example.org", "y3@example.org")
    assert post(client, "/host/new", **form(**fresh)).status_code == 303  # 1 + 4 invitations: within 5
    assert games(few_invitations) == 2


def test_addresses_that_confirmed_are_not_counted_again(few_invitations: Flask) -> None:
    runtime = app_runtime(few_invitations)
    client = host_at(few_invitations, "203.0.113.1")
    friends = new_players("ann@example.org", "ben@example.org", "cat@example.org", "dan@example.org")
    response = post(client, "/host/new", **form(**friends))
    game_id = redirected_id(response)
    for seat in range(4):
        runtime.seats.mark_seen(game_id, seat)  # each player opened their seat's page

    answers = [post(client, "/host/new", **form(**friends, title=f"Again {n}")).status_code for n in range(3)]

    assert answers == [303, 303, 303]
    assert games(few_invitations) == 4
