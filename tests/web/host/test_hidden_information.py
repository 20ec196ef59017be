"""The blind host: no page or JSON of the host's pages depends on anything hidden from an onlooker while a
game runs, because the host may be a player.

During random games (base, a gold pick, Saboteur 2 with its swaps and inspections), a twin game is kept that
differs from the real one only in hidden information (`scramble_hidden` for an onlooker: every hand, role,
goal, pile and gold value; every private event with other contents). Every host page and JSON must read the
same for both, once the game id and what differs by construction (the audit log, mail delivery counts) are
set aside; none may name a card that lies in a hand or a pile, or carry a role before its round ends.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

import engine
from pbem.models import Game, TurnClock
from pbem.runtime import Runtime
from tests.support.games import Chooser, dig_for_gold, store_game
from tests.support.invites import confirm_path, create_invite, joined_and_confirmed, person, share_link
from tests.support.twins import PAGE_TWIN_GAMES, Twins, cards_named, hidden_cards, role_paths
from tests.support.web import app_runtime, post, redirected_id, sign_in

AUDIT = re.compile(r'<section class="audit".*?</section>', re.S)
MAIL = re.compile(r'<td class="mail-status"[^>]*>.*?</td>', re.S)
CSRF_FIELD = re.compile(r'(name="csrf_token" value=")[^"]*(")')


def host_pages(client: FlaskClient, game_id: str, seq: int, dashboard: list[dict[str, Any]]) -> dict[str, Any]:
    """Everything the host's pages show about one game now (its row of `dashboard`, the games list just read)."""
    pages: dict[str, Any] = {}
    for name, path in [("page", f"/host/games/{game_id}"), ("json", f"/host/games/{game_id}.json")]:
        response = client.get(path)
        assert response.status_code == 200, path
        pages[name] = response.get_json() if name == "json" else response.get_data(as_text=True)
    if seq > 0:
        for to in {0, seq - 1}:
            response = client.get(f"/host/games/{game_id}/rollback?to={to}")
            assert response.status_code in (200, 409)  # 409: back across a round's end, which is refused
            pages[f"rollback-{to}"] = f"{response.status_code} {response.get_data(as_text=True)}"
    copy = client.get(f"/host/new?copy={game_id}")  # a new game with this one's settings
    assert copy.status_code == 200
    pages["copy"] = copy.get_data(as_text=True)
    assert client.get(f"/host/games/{game_id}/export.json").status_code == 409  # never while it runs
    [pages["dashboard"]] = [game for game in dashboard if game["id"] == game_id]
    return pages


def copy_turn_clock(runtime: Runtime, real_id: str, twin_id: str) -> None:
    """The turn's clock (deadline, reminders) is no secret and no part of the engine state: the twin keeps the
    real game's, as the game service would have kept it."""
    with runtime.db.write() as session:
        real = session.scalar(select(Game).where(Game.public_id == real_id))
        twin = session.scalar(select(Game).where(Game.public_id == twin_id))
        assert real is not None and twin is not None
        clock = session.get(TurnClock, real.id)
        if clock is None:
            return
        values = {column.key: getattr(clock, column.key) for column in TurnClock.__table__.columns
                  if column.key != "game_id"}
        copy = session.get(TurnClock, twin.id)
        if copy is None:
            session.add(TurnClock(game_id=twin.id, **values))
        else:
            for key, value in values.items():
                setattr(copy, key, value)


def comparable(pages: dict[str, Any], game_id: str, real_id: str) -> str:
    """Set aside the game id, the audit log and mail delivery counts (the twin has neither)."""
    shown = {}
    for name, value in pages.items():
        if isinstance(value, str):
            value = MAIL.sub("", AUDIT.sub("", CSRF_FIELD.sub(r"\1-\2", value)))
            shown[name] = value.replace(game_id, real_id)
        else:
            data = json.loads(json.dumps(value).replace(game_id, real_id))
            data.pop("host_actions", None)
            data.pop("mail_trouble", None)
            if "game" in data:
                data["game"].pop("mail_trouble", None)
            for seat in data.get("seats", []):
                seat.pop("mail", None)
            shown[name] = json.dumps(data, sort_keys=True)
    return json.dumps(shown, sort_keys=True)


def this_round(data: dict[str, Any]) -> dict[str, Any]:
    """The host's JSON without the finished rounds' results: their tables were public when they ended, and their
    cards are shuffled into the next round's deal, so naming them tells nothing of a hand or a pile now."""
    view = {key: value for key, value in data["view"].items() if key != "results"}
    return {**data, "view": view}


@pytest.mark.slow
@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize(("players", "seed", "choose", "steps", "variant"), PAGE_TWIN_GAMES)
def test_host_pages_do_not_change_when_only_hidden_information_changes(
    app: Flask, client: FlaskClient, players: int, seed: int, choose: Chooser, steps: int, variant: str
) -> None:
    runtime = app_runtime(app)
    names = ["Ann", "Ben", "Cat", "Dan", "Eve"][:players]
    game_id = store_game(runtime, engine.new_game(names, seed=seed, variant=variant))
    twins = Twins(runtime, game_id, 0, random.Random(seed))
    twin_id = twins.twin_ids[None] = twins._create(None)  # scrambled for an onlooker: everything hidden differs
    sign_in(client, runtime)
    rng = random.Random(seed)
    phases = set()

    for _ in range(steps):
        twins.follow()
        copy_turn_clock(runtime, game_id, twin_id)
        state, seq = runtime.games.engine_state(game_id)
        phases.add(state.phase)
        dashboard = client.get("/host/games.json").get_json()["games"]  # one list holds both games' rows
        real = host_pages(client, game_id, seq, dashboard)
        twin = host_pages(client, twin_id, seq, dashboard)
        assert comparable(twin, twin_id, game_id) == comparable(real, game_id, game_id), (
            f"the host's pages show something hidden at move {seq}"
        )
        everything = " ".join(value if isinstance(value, str) else json.dumps(value) for value in real.values())
        assert not cards_named(everything, this_round(real["json"])) & hidden_cards(state, None)
        assert {path[:2] for path in role_paths(real["json"])} <= {("view", "results")}
        mover = engine.to_act(state)
        assert mover is not None
        runtime.games.submit_move(game_id, mover, choose(state, mover, rng), seq, f"move-{seq}")

    assert "play" in phases and (choose is not dig_for_gold or "gold" in phases)


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_host_twin_really_differs_so_the_comparison_has_teeth(app: Flask, client: FlaskClient) -> None:
    runtime = app_runtime(app)
    game_id = store_game(runtime, engine.new_game(["Ann", "Ben", "Cat"], seed=3))
    twins = Twins(runtime, game_id, 0, random.Random(3))
    twin_id = twins.twin_ids[None] = twins._create(None)
    twins.follow()
    sign_in(client, runtime)
    real_state = runtime.games.engine_state(game_id)[0]
    twin_state = runtime.games.engine_state(twin_id)[0]
    assert real_state.hands != twin_state.hands or real_state.roles != twin_state.roles
    # an emergency reveal (the one way to see hidden things) does differ between them
    real = post(client, f"/host/games/{game_id}/reveal", confirm="yes", reason="check").get_data(as_text=True)
    twin = post(client, f"/host/games/{twin_id}/reveal", confirm="yes", reason="check").get_data(as_text=True)
    assert real.replace(game_id, twin_id) != twin


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_join_confirmation_invite_and_rematch_pages_show_nothing_of_the_game(app: Flask, client: FlaskClient) -> None:
    runtime = app_runtime(app)
    sign_in(client, runtime)
    invite_id = create_invite(client, title="Open mine", places="3")
    link = share_link(client, invite_id)
    for name in ("Ann", "Ben", "Cat"):
        joined_and_confirmed(app, link, name, f"{name.lower()}@example.org")
    confirm = confirm_path(runtime, "ann@example.org")
    assert post(client, f"/host/invites/{invite_id}/start", confirm="yes").status_code == 303
    game_id = redirected_id(client.get(f"/host/invites/{invite_id}"))
    stranger = person(app)

    def outside_pages() -> str:
        """The pages anyone with the shared link or an old confirmation link reaches once the game runs."""
        shown = [stranger.get(link), stranger.get(confirm), client.get(f"/host/invites/{invite_id}")]
        assert [page.status_code for page in shown] == [410, 200, 303]  # started: said so, or on to the game
        return CSRF_FIELD.sub(r"\1-\2", " ".join(page.get_data(as_text=True) for page in shown))

    before = outside_pages()
    rng = random.Random(5)
    for _ in range(12):
        state, seq = runtime.games.engine_state(game_id)
        assert outside_pages() == before  # the same at every move: nothing of the game reaches them
        assert not cards_named(before, {}) & hidden_cards(state, None)
        mover = engine.to_act(state)
        assert mover is not None
        runtime.games.submit_move(game_id, mover, engine.bots.choose(state, mover, rng), seq, f"move-{seq}")

    assert post(client, f"/host/games/{game_id}/end", confirm="yes").status_code == 303
    assert post(client, f"/host/games/{game_id}/rematch", confirm="yes", order="shuffled").status_code == 303
    rematch_id = runtime.rematches.lineage(game_id).next
    state, _ = runtime.games.engine_state(rematch_id)
    data = client.get(f"/host/games/{rematch_id}.json").get_json()
    pages = " ".join(client.get(path).get_data(as_text=True) for path in (
        f"/host/games/{rematch_id}", f"/host/new?copy={rematch_id}",
    ))
    finished_page = client.get(f"/host/games/{game_id}").get_data(as_text=True)
    assert "A rematch of" in pages and 'id="rematch-link"' in finished_page
    assert not cards_named(pages, data) & hidden_cards(state, None)
    assert list(role_paths(data)) == []  # no role of the rematch's first round, which has just been dealt
