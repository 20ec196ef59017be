"""A round's end, the game's end, the rules, the host's pages and three emails as a German or a Korean reader sees
them in real Chromium, at a phone's size and a desktop's: no English left, nothing wider than the screen, the
round-over panel and the final scores on show, and a picture of each kept (`make screenshots`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.support.browser import LiveServer, english_left_on, open_turn_page
from tests.support.games import arranged_in
from tests.support.inbox import HOST, ann_reaches_the_gold
from tests.support.mail import mailbox, shown_as_a_client_would
from tests.support.web import LINK

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("compiled_catalogues")]

Shoot = Callable[[Any, str], Path]
TITLE = {"de": "Freitagsmine", "ko": "금요일 광산"}
# The arranged table's names (tests/support/tables.py) and the host's address are not words of a language.
KEPT = frozenset({"Ann", "Di", "Bo", "Cy", "host", "example", "org"})
EMAILS = ("your_turn", "round_digest", "game_over")


def fits_and_reads(page: Page, language: str) -> None:
    """The page is in `language` throughout and no wider than the window."""
    expect(page.locator("html")).to_have_attribute("lang", language)
    assert english_left_on(page, language, KEPT | set(TITLE[language].split())) == []
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "wider than the screen"


def host_signs_in(page: Page, live_server: LiveServer) -> None:
    """The host asks for a link on the page in the browser's language and opens the one the outbox holds."""
    page.goto(f"{live_server.url}/host")
    page.locator("input[name=email]").fill(HOST)
    page.locator("form.host-form button[type=submit]").click()
    expect(page.locator("#link-sent")).to_be_visible()
    link = LINK.search(mailbox(live_server.runtime, to=HOST)[-1].body_text or "")
    assert link
    page.goto(link.group(0))
    page.locator("main form button[type=submit]").first.click()
    expect(page.locator("form[action$='/host/sign-out']")).to_have_count(1)


@pytest.mark.parametrize("language", ["de", "ko"])
def test_the_round_and_game_ends_rules_and_host_pages_read_and_fit_in_german_or_korean(
    reader: Callable[[str], Page], live_server: LiveServer, screenshots: Shoot, language: str, size: str
) -> None:
    arranged = arranged_in(live_server.runtime)
    round_over = ann_reaches_the_gold(
        live_server.runtime, lambda state: arranged(state, language=language, title=TITLE[language]),
        last_round=False,
    )
    game_over = ann_reaches_the_gold(
        live_server.runtime, lambda state: arranged(state, language=language, title=TITLE[language]),
        last_round=True,
    )
    player, host = reader(language), reader(language)

    open_turn_page(player, live_server, round_over)
    expect(player.locator("#round-over")).to_have_attribute("open", "")
    fits_and_reads(player, language)
    screenshots(player, f"{language}-{size}-round-over")

    player.goto(live_server.link(game_over, 0))
    expect(player.locator("#final-heading")).to_be_visible()
    fits_and_reads(player, language)
    screenshots(player, f"{language}-{size}-game-over")

    player.goto(f"{live_server.url}/rules")
    fits_and_reads(player, language)
    screenshots(player, f"{language}-{size}-rules")

    host_signs_in(host, live_server)
    fits_and_reads(host, language)
    screenshots(host, f"{language}-{size}-host-dashboard")
    host.goto(f"{live_server.url}/host/games/{round_over}")
    fits_and_reads(host, language)
    screenshots(host, f"{language}-{size}-host-game")
    host.goto(f"{live_server.url}/host/new")
    fits_and_reads(host, language)
    screenshots(host, f"{language}-{size}-host-new-game")


@pytest.mark.parametrize("language", ["de", "ko"])
def test_a_turn_email_a_round_digest_and_the_game_over_email_read_and_fit_in_german_or_korean(
    reader: Callable[[str], Page], live_server: LiveServer, screenshots: Shoot, language: str, size: str
) -> None:
    runtime = live_server.runtime
    arranged = arranged_in(runtime)
    for last in (False, True):
        ann_reaches_the_gold(runtime, lambda state: arranged(state, language=language, title=TITLE[language]),
                             last_round=last)
    rows = {row.kind: row for row in mailbox(runtime) if row.kind in EMAILS and row.body_html}
    assert set(rows) == set(EMAILS)
    page = reader(language)

    for kind in EMAILS:
        row = rows[kind]
        assert row.headers.get("Content-Language") == language
        page.set_content(shown_as_a_client_would(runtime, row))
        assert english_left_on(page, language, KEPT | set(TITLE[language].split())) == [], kind
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), f"{kind} is too wide"
        screenshots(page, f"{language}-{size}-{kind}")
