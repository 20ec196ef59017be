"""Every route of the application, walked from its URL map, answers hostile input with a 4xx, never a 5xx.

Path variables are filled with real values from a running game (a seat's link token, the game's id, a host
sign-in token, unsubscribe and auto-pass tokens, an invite link and a joiner's confirmation, a seat's address
change, a spectator link with its confirmation and stop links, a queued email's id, each host action) and with
odd ones.
Query strings and form fields are the names each route actually reads (recorded while it runs, so a new
parameter is fuzzed without listing it here), filled with huge and negative numbers, control, escape and
direction-override characters, very long strings and values of the wrong shape.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import pytest
from flask import Flask, Request
from flask.testing import FlaskClient
from sqlalchemy import select
from werkzeug.datastructures import ImmutableMultiDict
from werkzeug.routing import Rule

import engine
from pbem.mail.unsubscribe import UnsubscribeLinks
from pbem.models import OutboxMessage, SpectatorSubscription
from pbem.runtime import Runtime
from pbem.service.host.host_access import HostSession
from pbem.service.host.invite_views import InviteSettings
from pbem.tokens import SpectatorLinkSigner, SpectatorStop
from tests.support.games import PEOPLE, link_token, play_moves, seat_token
from tests.support.mail import mailbox
from tests.support.web import CSRF, HOST, app_runtime, built_app, host_link, sign_in, with_csrf

HOSTILE = [
    "99999999999999999999999999",
    "-99999999999999999999",
    "-1",
    "1e400",
    "\u0661\u0662",  # Arabic-Indic digits: int() reads them, a database column may not
    "\x00",
    "Ann\x00\x1b[31m\u202eevil",
    "\u202e\u2066",
    "x" * 5000,
    "[]",
    '{"type": "play", "card": 99999999999999999999999, "x": -99999999999999999999, "y": 1e400}',
]
# The values tried one field at a time (the others plausible), to reach the checks behind a form's first one.
ONE_AT_A_TIME = ["99999999999999999999999999", "Ann\x00\x1b[31m\u202eevil", "y" * 400]
ODD_PATH_VALUES = ["0", "-1", "99999999999999999999999999", "%00", quote("\u202e\x1b"), "x" * 600]
# Ending and abandoning last: the other actions act on a running game.
HOST_GAME_ACTIONS = ["start", "pause", "resume", "skip", "extend", "rollback", "reveal", "nonsense", "end", "abandon"]
HOST_SEAT_ACTIONS = ["replace", "rotate", "resend", "email", "nudge", "auto-pass", "nonsense"]
HOST_INVITE_ACTIONS = ["remove", "close", "reopen", "rotate", "nonsense", "start"]
PRESENCE_ACTIONS = ["away", "back", "quiet", "timeout_card", "nonsense"]
READ_NAMES: set[str] = set()


class RecordingDict(ImmutableMultiDict):  # type: ignore[type-arg]
    """Query strings and forms that note every name the application asks them for."""

    def get(self, key: Any, default: Any = None, type: Any = None) -> Any:  # noqa: A002
        READ_NAMES.add(key)
        return super().get(key, default, type)

    def getlist(self, key: Any, type: Any = None) -> Any:  # noqa: A002
        READ_NAMES.add(key)
        return super().getlist(key, type)

    def __getitem__(self, key: Any) -> Any:
        READ_NAMES.add(key)
        return super().__getitem__(key)


class RecordingRequest(Request):
    parameter_storage_class = RecordingDict


@dataclass
class Table:
    """A running game, a client signed in as its host and as the seat to act, and every kind of real value a
    route's path may hold."""

    app: Flask
    runtime: Runtime
    game_id: str
    client: FlaskClient
    values: dict[str, list[str]] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    requests: int = 0


@pytest.fixture
def table(config: Any, clock: Any, chance: Any) -> Iterator[Table]:
    for app in built_app(config, clock, chance):
        app.request_class = RecordingRequest
        runtime = app_runtime(app)
        game_id = runtime.games.create_game(title="Fuzzed mine", players=PEOPLE, host_email=HOST)
        runtime.games.start_game(game_id)
        play_moves(runtime, game_id, 3, random.Random(5))
        runtime.chat.post(game_id, 0, "hello")
        runtime.host_access.request_link(HOST, "127.0.0.1")
        sign_in_token = link_token(host_link(runtime, HOST))
        with runtime.db.read() as session:
            message_id = session.scalars(select(OutboxMessage.id).limit(1)).one()
        to_act = engine.to_act(runtime.games.engine_state(game_id)[0])
        assert to_act is not None
        client = app.test_client()
        sign_in(client, runtime)
        player_token = seat_token(runtime, game_id, to_act)
        assert client.get(f"/play/{player_token}").status_code in (200, 303)  # the cookie now holds the seat too
        with_csrf(client)
        invite_id = runtime.invites.create(HostSession(HOST, False), InviteSettings(
            title="Open mine", variant="base", options=None, policies={}, places=3, bots=0, seat_order="joined",
            auto_start=False, players_may_rematch=False, host_name=None,
        ))
        invite_token = link_token(runtime.invites.detail(invite_id, HostSession(HOST, False)).link)
        watch, confirmation, stop = spectator_tokens(runtime, config, clock, game_id)
        runtime.invites.join(invite_token, "Sam", "sam@example.org", "Europe/Paris", "127.0.0.1")
        runtime.moderation.correct_email(game_id, 1, "ben.new@example.org", host=HostSession(HOST, False))
        values = {
            "token": [
                player_token,
                sign_in_token,
                UnsubscribeLinks(config.secret_keys, config.base_url).token(game_id, 1, PEOPLE[1].email or ""),
                link_token(runtime.auto_pass_links.url(game_id, 2, 0)),
                invite_token,
                emailed_token(runtime, "join_confirm", "/join/confirm/"),
                emailed_token(runtime, "address_change", "/seat-address/"),
                watch,
            ],
            "confirmation": [confirmation],
            "stop": [stop],
            "invite_id": [invite_id],
            "game_id": [game_id],
            "seat": ["0", "2"],
            "round_number": ["1"],
            "message_id": [str(message_id)],
            "address_id": ["1"],  # a notification address: none is stored (they resolve public names only)
            "filename": ["style.css"],
        }
        real_links = [f"/join/{invite_token}", f"/join/confirm/{values['token'][5]}",
                      f"/seat-address/{values['token'][6]}", f"/watch/{watch}", f"/watch/confirm/{confirmation}",
                      f"/watch/stop/{stop}"]
        assert [app.test_client().get(path).status_code for path in real_links] == [200] * len(real_links)
        yield Table(app=app, runtime=runtime, game_id=game_id, client=client, values=values)


def emailed_token(runtime: Runtime, kind: str, path: str) -> str:
    """The token of the link under `path` in the last email of `kind`."""
    found = re.search(re.escape(path) + r"([\w.-]+)", mailbox(runtime, kind)[-1].body_text or "")
    assert found, f"no {path} link in the {kind} email"
    return found.group(1)


def spectator_tokens(runtime: Runtime, config: Any, clock: Any, game_id: str) -> tuple[str, str, str]:
    """A spectator link's token, a confirmation of its round-end emails and the stop link of that subscription."""
    watch = link_token(runtime.spectators.create(game_id, show_chat=True, actor_email=HOST))
    runtime.spectators.ask_for_round_emails(watch, "sam@example.org", "127.0.0.1")
    confirmation = emailed_token(runtime, "spectator_confirm", "/watch/confirm/")
    runtime.spectators.confirm_round_emails(confirmation)
    with runtime.db.read() as session:
        subscription = session.scalars(select(SpectatorSubscription)).one()
        claim = SpectatorStop(subscription.id, SpectatorStop.digest(subscription.mailbox))
    stop = link_token(SpectatorLinkSigner(config.secret_keys, config.base_url, clock).stop_url(claim))
    return watch, confirmation, stop


def fillings(rule: Rule, table: Table) -> Iterator[tuple[dict[str, str], bool]]:
    """Every variable at its first real value, then each other real value and each odd value of one variable
    (the others at their first real value); with whether its fields are fuzzed too (the first filling, and each
    host action, since each reads fields of its own)."""
    real = dict(table.values)
    if rule.endpoint == "host.game_action":
        real["action"] = HOST_GAME_ACTIONS
    elif rule.endpoint == "host.seat_action":
        real["action"] = HOST_SEAT_ACTIONS
    elif rule.endpoint == "host.invite_action":
        real["action"] = HOST_INVITE_ACTIONS
    names = sorted(rule.arguments)
    first = {name: real[name][0] for name in names}
    yield first, True
    for name in names:
        for value in real[name][1:]:
            yield {**first, name: value}, name == "action"
        for value in ODD_PATH_VALUES:
            yield {**first, name: value}, False


def build_path(rule: Rule, values: dict[str, str]) -> str:
    path = rule.rule
    for name, value in values.items():
        path = path.replace(f"<int:{name}>", value).replace(f"<path:{name}>", value).replace(f"<{name}>", value)
    return path


def baselines(endpoint: str, table: Table) -> list[dict[str, str]]:
    """Plausible values for the fields a form reads before the one being fuzzed."""
    if endpoint == "player.presence":
        return [{"action": action} for action in PRESENCE_ACTIONS]
    if endpoint == "player.move":
        seq = str(table.runtime.games.engine_state(table.game_id)[1])
        return [
            {"move": '{"type": "pass", "cards": [0]}', "seq": seq, "submission_id": "s", "confirmed": "yes"},
            {"compose": "pass", "pass_cards": "0", "seq": seq, "submission_id": "s", "confirmed": "yes"},
            {"compose": "clear", "clear_cards": "0", "clear_remove": "1", "seq": seq, "confirmed": "yes"},
        ]
    if endpoint == "host.create_game":
        rows = {f"{kind}_{index}": getattr(person, kind if kind == "email" else "name") or ""
                for index, person in enumerate(PEOPLE) for kind in ("name", "email")}
        return [{"title": "Another mine", "confirm": "yes", "variant": "base", **rows}]
    return [{"confirm": "yes", "confirmed": "yes", "reason": "fuzz", "to": "1", "hours": "1", "name": "Dan",
             "email": "dan@example.org", "on": "yes", "text": "hi"}]


def send(client: FlaskClient, table: Table, method: str, path: str, fields: dict[str, str], *,
         json_body: Any = None) -> None:
    table.requests += 1
    if method == "GET":
        response = client.get(path, query_string=fields)
    elif json_body is not None:
        response = client.post(path, data=json.dumps(json_body), content_type="application/json",
                               headers={"X-CSRF-Token": CSRF})
    else:
        response = client.post(path, data={"csrf_token": CSRF, **fields})
    if response.status_code >= 500:
        shown = {name: value[:40] for name, value in fields.items()}
        table.failures.append(f"{method} {path[:120]} {shown} -> {response.status_code}")


def fuzz_route(table: Table, rule: Rule, method: str, fuzz_fields: bool) -> None:
    """Each filling of the path with plausible fields; where `fillings` says so and `fuzz_fields`, every field
    the route reads with every hostile value at once, then one field at a time. Fields already sent to the path
    are not sent again: a route that reads no field has nothing to fuzz, one that reads a single field has had
    each value there at once, and a hostile value in the field the baselines differ by is one request."""
    client = table.client
    for number, (filling, fuzz_here) in enumerate(fillings(rule, table)):
        path = build_path(rule, filling)
        tried: list[dict[str, str]] = []
        for baseline in baselines(rule.endpoint, table):
            READ_NAMES.clear()
            send(client, table, method, path, baseline)
            tried.append(baseline)
            if not (fuzz_here and fuzz_fields):
                continue
            read = sorted(READ_NAMES - {"csrf_token"})
            for fields in [*({**baseline, **{name: value for name in read}} for value in HOSTILE),
                           *({**baseline, name: value} for name in read for value in ONE_AT_A_TIME)]:
                if fields not in tried:
                    tried.append(fields)
                    send(client, table, method, path, fields)
        if number == 0 and method == "POST":
            send(client, table, method, path, {}, json_body=[{"move": 1e300}])


@pytest.mark.slow  # every route with every hostile value: among the longest tests, so it is handed out first
def test_no_route_answers_hostile_input_with_a_server_error(table: Table) -> None:
    # Signing out (here or everywhere) comes last: the rest of the walk is signed in.
    rules = sorted((rule for rule in table.app.url_map.iter_rules() if rule.endpoint != "static"),
                   key=lambda rule: "sign_out" in rule.endpoint)
    walked = set()

    for rule in rules:
        for method in sorted((rule.methods or set()) & {"GET", "POST"}):
            # /play/<token>/... and /table/<game_id>/... share their views: fields are fuzzed through the first.
            fuzz_route(table, rule, method, fuzz_fields=(rule.endpoint, method) not in walked)
            walked.add((rule.endpoint, method))

    assert table.failures == [], f"{len(table.failures)} of {table.requests} requests:\n" + "\n".join(table.failures)
    assert {endpoint for endpoint, _method in walked} == {rule.endpoint for rule in rules}
