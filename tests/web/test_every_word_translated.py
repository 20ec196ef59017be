"""No English is left for a reader of German or Korean: a whole game in one language, from the invitation to game
over, read by its players, its host, a spectator and a stranger, every page they can reach by a link and every
email the game sends, holds no English word (tests/support/words_left.py says how English is told apart)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from flask import Flask
from flask.testing import FlaskClient

import engine
from pbem.chance import SeededChance
from pbem.clock import SettableClock
from pbem.config import Config
from pbem.service.host.host_access import HostSession
from pbem.service.host.invite_views import InviteSettings
from pbem.service.turns.values import PlayerSpec
from tests.support.games import link_token, random_move, seat_token
from tests.support.mail import mailbox
from tests.support.web import HOST, app_runtime, built_app, post, sign_in, sign_in_player, with_csrf
from tests.support.words_left import english_left, visible_words

pytestmark = [pytest.mark.usefixtures("compiled_catalogues"), pytest.mark.slow]

PLAYERS = {
    "ko": (PlayerSpec("민준", "minjun@example.org"), PlayerSpec("서연", "seoyeon@example.org"),
           PlayerSpec("지우", "jiwoo@example.org")),
    "de": (PlayerSpec("Jürgen", "juergen@example.org"), PlayerSpec("Käthe", "kaethe@example.org"),
           PlayerSpec("Lotte", "lotte@example.org")),
}
TITLE = {"ko": "금요일 광산", "de": "Freitagsmine"}
# Links a crawl does not follow: files for machines, the drawing's stylesheet, the development mail catcher.
NOT_PAGES = re.compile(r"\.(json|css|js|svg|png|ico|eml)(\?|$)|^/static/|^/dev/|^/healthz")
HREF = re.compile(r'href="(/[^"#]*)"')


@dataclass
class Reading:
    """What the readers of one language saw: each page (by path) and each email (by kind), as visible words."""

    language: str
    seen: dict[str, str] = field(default_factory=dict)

    def page(self, client: FlaskClient, path: str, moment: str = "", *, follow: bool = True, limit: int = 60) -> None:
        """`path` and every page reachable from it by links (one of each shape, up to `limit`), read at `moment`."""
        waiting, shapes = [path], set()
        while waiting and limit:
            path = waiting.pop(0)
            if self.shape(path) in shapes:
                continue
            shapes.add(self.shape(path))
            response = client.get(path, follow_redirects=True)
            body = response.get_data(as_text=True)
            if "text/html" not in response.content_type:
                continue
            self.seen[f"{moment} {path}".strip()] = visible_words(body)
            limit -= 1
            if follow:
                waiting += [link for link in HREF.findall(body) if not NOT_PAGES.search(link)]

    def answer(self, label: str, client: FlaskClient, path: str, **fields: str) -> None:
        response = post(client, path, **fields)
        self.seen[f"POST {path} ({label})"] = visible_words(response.get_data(as_text=True))

    @staticmethod
    def shape(path: str) -> str:
        """A path with its figures and tokens as one mark: one round page, one replay step stands for all."""
        return re.sub(r"\d+|[\w-]{20,}", "#", path.split("?")[0]) + ("?" if "?" in path else "")

    def left(self, names: set[str]) -> dict[str, list[str]]:
        """Each English passage found, with where it was seen (the first three places)."""
        kept = frozenset(word for name in names for word in re.findall(r"[A-Za-z]+", name))
        places: dict[str, list[str]] = {}
        for where, text in self.seen.items():
            for found in english_left(text, self.language, kept):
                places.setdefault(found, []).append(where)
        return {found: where[:3] for found, where in places.items()}


@pytest.fixture(params=["ko", "de"])
def reading(request: pytest.FixtureRequest, config: Config, clock: SettableClock, chance: SeededChance
            ) -> Iterator[Reading]:
    language = request.param
    for app in built_app(config, clock, chance):
        yield whole_game_read(app, language)


def browser(app: Flask, language: str) -> FlaskClient:
    client = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    with_csrf(client)
    return client


def whole_game_read(app: Flask, language: str) -> Reading:
    runtime = app_runtime(app)
    reading = Reading(language)
    people = PLAYERS[language]
    host = browser(app, language)
    reading.page(host, "/host", follow=False)
    sign_in(host, runtime)
    game_id = runtime.games.create_game(title=TITLE[language], players=people, host_email=HOST, language=language)
    runtime.games.start_game(game_id)
    seats = {seat: browser(app, language) for seat in range(len(people))}
    stranger = browser(app, language)
    watch = runtime.spectators.create(game_id, show_chat=True, actor_email=HOST)
    invite_id = runtime.invites.create(HostSession(HOST, False), InviteSettings(
        title=TITLE[language], variant="base", options=None, policies={}, places=3, bots=0, seat_order="joined",
        auto_start=False, players_may_rematch=False, host_name=None,
    ))
    join = runtime.invites.detail(invite_id, HostSession(HOST, False)).link

    def read_everything(moment: str) -> None:
        for seat, client in seats.items():
            reading.page(client, f"/play/{seat_token(runtime, game_id, seat)}", f"{moment}, seat {seat}:")
        reading.page(host, "/host", f"{moment}, host:")
        reading.page(stranger, "/watch/" + link_token(watch), f"{moment}, spectator:")

    read_everything("start")
    reading.page(stranger, "/")
    reading.page(stranger, "/rules")
    reading.page(stranger, "/join/" + link_token(join))
    reading.page(stranger, "/no-such-page", follow=False)
    reading.answer("sign-in", stranger, "/sign-in", email="nobody@example.org")
    reading.answer("join", stranger, "/join/" + link_token(join), name="Sam", email="sam@example.org",
                   timezone="Europe/Berlin")
    runtime.chat.post(game_id, 0, "안녕" if language == "ko" else "Glück auf!")
    rng = random.Random(7)
    rounds_read: set[int] = set()
    while not engine.is_over(state := runtime.games.engine_state(game_id)[0]):
        seat, move, seq = random_move(runtime, game_id, rng)
        runtime.games.submit_move(game_id, seat, move, seq, f"tour-{seq}")
        if state.round not in rounds_read and engine.to_act(state) is not None and seq % 10 == 0:
            rounds_read.add(state.round)
            read_everything(f"round {state.round}")
    read_everything("game over")
    reading.page(sign_in_player(browser(app, language), runtime, people[0].email or ""), "/my-games")
    for message in mailbox(runtime):
        where = f"email {message.kind} to {message.to_address}"
        reading.seen[f"{where}: subject"] = message.subject or ""
        reading.seen[f"{where}: text"] = message.body_text or ""
        reading.seen[f"{where}: html"] = visible_words(message.body_html or "")
    return reading


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)  # a property of the words, not the database
def test_a_whole_game_read_in_german_or_korean_holds_no_english_word(reading: Reading) -> None:
    names = {person.name for person in PLAYERS[reading.language]} | {TITLE[reading.language], "Sam", HOST}

    left = reading.left(names)

    assert len(reading.seen) > 40, sorted(reading.seen)  # the crawl reached the game's pages and emails
    assert left == {}, "\n".join(f"{found!r} in {where}" for found, where in sorted(left.items()))
