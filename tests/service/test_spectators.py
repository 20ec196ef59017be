"""Spectators: a host's link shows a game exactly as an onlooker may see it (the twin-game test of the seats),
the host revokes it, and a spectator who confirmed their address hears of each round end."""

from __future__ import annotations

import base64
import random
import re
from datetime import timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

import engine
from pbem.clock import SettableClock
from pbem.models import SpectatorSubscription
from pbem.runtime import Runtime
from pbem.tokens import SpectatorLinkSigner, SpectatorStop
from tests.support.games import Chooser, dig_for_gold, store_game
from tests.support.mail import mailbox
from tests.support.spectators import confirmation_path, spectator_path
from tests.support.twins import PAGE_TWIN_GAMES, Twins, hidden_cards
from tests.support.web import app_runtime, post, sign_in, with_csrf

CSRF_FIELD = re.compile(r'(name="csrf_token" value=")[^"]*(")')


def seen(client: FlaskClient, path: str, game_id: str, real_id: str) -> str:
    response = client.get(path)
    assert response.status_code == 200
    return CSRF_FIELD.sub(r"\1-\2", response.get_data(as_text=True).replace(game_id, real_id))


@pytest.mark.slow
@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize(("players", "seed", "choose", "steps", "variant"), PAGE_TWIN_GAMES)
def test_the_spectator_page_does_not_change_when_only_hidden_information_changes(
    app: Flask, client: FlaskClient, players: int, seed: int, choose: Chooser, steps: int, variant: str,
) -> None:
    runtime = app_runtime(app)
    names = ["Ann", "Ben", "Cat", "Dan", "Eve"][:players]
    game_id = store_game(runtime, engine.new_game(names, seed=seed, variant=variant))
    twins = Twins(runtime, game_id, 0, random.Random(seed))
    twin_id = twins.twin_ids[None] = twins._create(None)  # scrambled for an onlooker: everything hidden differs
    twins.follow()
    sign_in(client, runtime)
    real_path, twin_path = spectator_path(client, game_id, show_chat="yes"), spectator_path(client, twin_id,
                                                                                            show_chat="yes")
    watcher = app.test_client()
    rng = random.Random(seed)
    rounds_over = 0

    for _ in range(steps):
        twins.follow()
        state, seq = runtime.games.engine_state(game_id)
        real = seen(watcher, real_path, game_id, game_id)
        twin = seen(watcher, twin_path, twin_id, game_id).replace(twin_path, real_path)
        assert twin == real, f"the spectator page shows something hidden at move {seq}"
        assert not {int(card) for card in re.findall(r'data-card="(\d+)"', real)} & hidden_cards(state, None)
        rounds_over = max(rounds_over, len(state.results))
        mover = engine.to_act(state)
        assert mover is not None
        runtime.games.submit_move(game_id, mover, choose(state, mover, rng), seq, f"move-{seq}")

    assert choose is not dig_for_gold or rounds_over, "the check must have seen a round end"


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_spectator_twin_really_differs_so_the_comparison_has_teeth(app: Flask, client: FlaskClient) -> None:
    runtime = app_runtime(app)
    game_id = store_game(runtime, engine.new_game(["Ann", "Ben", "Cat"], seed=3))
    twins = Twins(runtime, game_id, 0, random.Random(3))
    twin_id = twins.twin_ids[None] = twins._create(None)
    twins.follow()
    real_state, twin_state = runtime.games.engine_state(game_id)[0], runtime.games.engine_state(twin_id)[0]
    assert real_state.hands != twin_state.hands or real_state.roles != twin_state.roles


def test_a_revoked_spectator_link_shows_nothing(host: FlaskClient, runtime_of: Runtime, game_id: str) -> None:
    path = spectator_path(host, game_id)
    watcher = host.application.test_client()
    assert watcher.get(path).status_code == 200
    link_id = runtime_of.spectators.links(game_id)[0].id

    assert post(host, f"/host/games/{game_id}/spectators/revoke", link=str(link_id)).status_code == 303

    gone = watcher.get(path)
    assert gone.status_code == 403 and "Test mine" not in gone.get_data(as_text=True)


def test_only_the_host_makes_spectator_links(client: FlaskClient, game_id: str) -> None:
    with_csrf(client)
    assert post(client, f"/host/games/{game_id}/spectators").status_code == 401


def test_the_table_talk_shows_only_when_the_host_allows_it(
    host: FlaskClient, runtime_of: Runtime, game_id: str,
) -> None:
    runtime_of.chat.post(game_id, 0, "Psst, I have a map")
    closed, open_ = spectator_path(host, game_id), spectator_path(host, game_id, show_chat="yes")
    watcher = host.application.test_client()

    assert "Psst" not in watcher.get(closed).get_data(as_text=True)
    assert "Psst" in watcher.get(open_).get_data(as_text=True)


def subscribe(watcher: FlaskClient, runtime: Runtime, path: str, email: str) -> None:
    """A spectator asks for round-end emails and confirms by the emailed link's button."""
    with_csrf(watcher)
    post(watcher, f"{path}/emails", email=email)
    assert post(watcher, confirmation_path(runtime, email)).status_code == 303


def finish_round(runtime: Runtime, game_id: str, rng: random.Random) -> None:
    """Random moves until the round being played is over and the next one dealt (or the game over)."""
    start = runtime.games.engine_state(game_id)[0].round
    for _ in range(2000):
        state, seq = runtime.games.engine_state(game_id)
        mover = engine.to_act(state)
        if mover is None or (state.round > start and state.phase == "play"):
            return
        runtime.games.submit_move(game_id, mover, engine.bots.choose(state, mover, rng), seq, f"m{seq}")
    raise AssertionError("the round did not end")


def stop_path(runtime: Runtime, email: str) -> str:
    body = mailbox(runtime, "spectator_round_end", to=email)[-1].body_text
    return "/watch/stop/" + re.search(r"/watch/stop/(\S+)", body).group(1)


def test_a_confirmed_spectator_is_emailed_at_each_round_end(
    host: FlaskClient, runtime_of: Runtime, game_id: str,
) -> None:
    path = spectator_path(host, game_id)
    watcher = host.application.test_client()
    with_csrf(watcher)
    post(watcher, f"{path}/emails", email="fan@example.org")
    confirm_path = confirmation_path(runtime_of, "fan@example.org")
    assert watcher.get(confirm_path).status_code == 200
    assert mailbox(runtime_of, "spectator_round_end") == []
    assert post(watcher, confirm_path).status_code == 303

    finish_round(runtime_of, game_id, random.Random(5))

    sent = mailbox(runtime_of, "spectator_round_end", to="fan@example.org")
    assert len(sent) == 1 and "Round 1" in sent[0].subject
    assert path in sent[0].body_text


def test_the_stop_link_of_a_round_end_email_shows_a_button_and_only_its_post_stops_the_emails(
    host: FlaskClient, runtime_of: Runtime, game_id: str,
) -> None:
    path = spectator_path(host, game_id)
    watcher = host.application.test_client()
    subscribe(watcher, runtime_of, path, "fan@example.org")
    rng = random.Random(5)
    finish_round(runtime_of, game_id, rng)
    stop = stop_path(runtime_of, "fan@example.org")
    payload = base64.urlsafe_b64decode(stop.split("/")[-1].split(".")[0] + "==").decode()
    assert "email=" not in stop and "fan@example.org" not in payload

    page = watcher.get(stop)  # what a mail scanner fetching the link does
    assert page.status_code == 200 and "Stop these emails" in page.get_data(as_text=True)
    finish_round(runtime_of, game_id, rng)
    assert len(mailbox(runtime_of, "spectator_round_end", to="fan@example.org")) == 2

    assert post(watcher, stop).status_code == 200
    finish_round(runtime_of, game_id, rng)
    assert len(mailbox(runtime_of, "spectator_round_end", to="fan@example.org")) == 2


def test_knowing_an_address_and_the_spectator_link_stops_nobodys_emails(
    host: FlaskClient, runtime_of: Runtime, game_id: str,
) -> None:
    path = spectator_path(host, game_id)
    fan, stranger = host.application.test_client(), host.application.test_client()
    subscribe(fan, runtime_of, path, "fan@example.org")
    subscribe(stranger, runtime_of, path, "nosy@example.org")
    rng = random.Random(5)
    finish_round(runtime_of, game_id, rng)
    own = stop_path(runtime_of, "nosy@example.org")
    with runtime_of.db.read() as session:
        fans = session.scalar(
            select(SpectatorSubscription.id).where(SpectatorSubscription.mailbox == "fan@example.org"))
    signer = SpectatorLinkSigner(runtime_of.config.secret_keys, "http://x", runtime_of.clock)
    wrong_key = SpectatorLinkSigner(("not-the-key",), "http://x", runtime_of.clock)
    wrong_address = signer.stop_url(SpectatorStop(fans, SpectatorStop.digest("nosy@example.org")))
    wrong_signature = wrong_key.stop_url(SpectatorStop(fans, SpectatorStop.digest("fan@example.org")))
    with_csrf(stranger)

    refused = [
        post(stranger, f"{path}/stop", email="fan@example.org").status_code,  # an unsigned address does nothing
        post(stranger, own[:-3] + ("AAA" if not own.endswith("AAA") else "BBB")).status_code,  # damaged
        post(stranger, "/watch" + wrong_address.split("/watch")[1]).status_code,
        post(stranger, "/watch" + wrong_signature.split("/watch")[1]).status_code,
    ]
    assert post(stranger, own).status_code == 200

    assert refused[0] in (404, 405) and refused[1:] == [403, 403, 403]
    finish_round(runtime_of, game_id, rng)
    assert len(mailbox(runtime_of, "spectator_round_end", to="fan@example.org")) == 2
    assert len(mailbox(runtime_of, "spectator_round_end", to="nosy@example.org")) == 1


def test_a_confirmation_link_expires_after_two_days_by_the_servers_clock(
    host: FlaskClient, runtime_of: Runtime, game_id: str, clock: SettableClock,
) -> None:
    path = spectator_path(host, game_id)
    watcher = host.application.test_client()
    with_csrf(watcher)
    post(watcher, f"{path}/emails", email="fan@example.org")
    confirm = confirmation_path(runtime_of, "fan@example.org")

    clock.advance(timedelta(days=2) - timedelta(minutes=1))
    assert watcher.get(confirm).status_code == 200
    clock.advance(timedelta(minutes=2))
    late = post(watcher, confirm)

    assert late.status_code == 403 and "two days" in late.get_data(as_text=True)
    with runtime_of.db.read() as session:
        assert session.scalar(select(SpectatorSubscription.id)) is None
