"""The application behind a real HTTP server in a thread, and Debian's Chromium driven by Playwright."""

from __future__ import annotations

import dataclasses
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from flask import Flask
from werkzeug.serving import BaseWSGIServer, make_server

from pbem.chance import SeededChance
from pbem.clock import SettableClock
from pbem.config import Config
from pbem.mail.deliver import Deliverer
from pbem.paths import REPO_ROOT
from pbem.runtime import Runtime
from tests.support.database import POSTGRES_URL
from tests.support.mail import SmtpServer
from tests.support.web import LINK, app_runtime, built_app
from tests.support.words_left import english_left

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

CHROMIUM = "/usr/bin/chromium-headless-shell"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run", "--disable-sync",
]
ARTIFACTS = REPO_ROOT / "artifacts"


@dataclass
class LiveServer:
    url: str
    app: Flask
    runtime: Runtime

    def link(self, game_id: str, seat: int) -> str:
        return self.runtime.games.invites(game_id)[seat].link


class _Dispatch:
    """Lets the server bind its port before the app exists, so the app's base_url names that port."""

    app: Flask | None = None

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        assert self.app is not None
        return self.app(environ, start_response)


@pytest.fixture
def live_server(config: Config, clock: SettableClock, chance: SeededChance) -> Iterator[LiveServer]:
    """The application behind a real HTTP server on 127.0.0.1, in a thread, for headless Chromium."""
    dispatch = _Dispatch()
    server: BaseWSGIServer = make_server("127.0.0.1", 0, dispatch, threaded=True)
    url = f"http://127.0.0.1:{server.server_port}"
    for app in built_app(dataclasses.replace(config, base_url=url), clock, chance):
        dispatch.app = app
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield LiveServer(url=url, app=app, runtime=app_runtime(app))
        finally:
            server.shutdown()
            thread.join()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's Chromium as its headless shell, driven by Playwright (never a downloaded browser): the same engine
    as the desktop browser, without the desktop browser's own processes and their CPU."""
    from playwright.sync_api import expect, sync_playwright

    # Several test processes share two cores: a page's script may take longer than the default 5 s to be ready.
    expect.set_options(timeout=15_000)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


# Pictures are for people to look at, and each costs the browser a full-page render: they are saved only when
# asked for, `make screenshots` (PBEM_SCREENSHOTS=1), never by `make test`.
SCREENSHOTS_WANTED = os.environ.get("PBEM_SCREENSHOTS", "") not in ("", "0")


def save_screenshot(page: Page, folder: str, name: str) -> Path | None:
    """The whole page as `artifacts/screenshots/<folder>/<name>.png` (git-ignored), when screenshots are wanted."""
    if not SCREENSHOTS_WANTED:
        return None
    path = ARTIFACTS / "screenshots" / folder / f"{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=True)
    return path


@pytest.fixture
def screenshots(request: pytest.FixtureRequest) -> Callable[[Any, str], Path | None]:
    """Save a page under a folder named after the test (see `save_screenshot`)."""
    folder = request.node.name.replace("[", "-").replace("]", "").replace("/", "-")
    return lambda page, name: save_screenshot(page, folder, name)


VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1440, "height": 900}}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A browser test proves a page and its script at one size; the database under the page is proven on both
    backends by the request-level tests. So a browser test runs each size on one backend: the phone on SQLite,
    the desktop on PostgreSQL (on SQLite as well when no PostgreSQL is configured)."""
    paired = [item for item in items if not is_size_on_the_other_backend(item)]
    if len(paired) < len(items):
        config.hook.pytest_deselected(items=[item for item in items if item not in paired])
        items[:] = paired


def is_size_on_the_other_backend(item: pytest.Item) -> bool:
    params = getattr(item, "callspec", None) and item.callspec.params  # type: ignore[attr-defined]
    if not params or item.get_closest_marker("browser") is None or "database_url" not in params:
        return False
    size = next((value for value in params.values() if isinstance(value, str) and value in VIEWPORTS), None)
    if size is None:
        return False
    backend = "postgresql" if size == "desktop" and POSTGRES_URL else "sqlite"
    return bool(params["database_url"] != backend)


@pytest.fixture(params=sorted(VIEWPORTS))
def size(request: pytest.FixtureRequest) -> str:
    """Each browser test runs at a phone's size and at a desktop's (`VIEWPORTS`)."""
    return str(request.param)


@pytest.fixture
def page(request: pytest.FixtureRequest, browser: Browser, size: str) -> Iterator[Page]:
    """A fresh browser context (no cookies) at a phone's and at a desktop's size; fails on any script error
    and on any failed request other than a page's own (a page may rightly answer 409 or 422)."""
    if "live_server" in request.fixturenames:
        # Set the server up first, so it is torn down last: the page's own requests finish before it stops.
        request.getfixturevalue("live_server")
    context = browser.new_context(viewport=VIEWPORTS[size], device_scale_factor=1)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    # A page answered with 409 or 422 is expected; a failing script, style or JSON request is not.
    opened.on("response", lambda response: errors.append(f"{response.status} {response.url}")
              if response.status >= 400 and response.request.resource_type != "document" else None)
    opened.on("console", lambda message: errors.append(message.text)
              if message.type == "error" and not message.text.startswith("Failed to load resource") else None)
    try:
        yield opened
        settle(opened)
    finally:
        context.close()
    assert errors == [], f"the page reported errors: {errors}"


def open_context(browser: Browser, size: str, **options: Any) -> BrowserContext:
    """A fresh browser context (no cookies) at the size under test (`VIEWPORTS`), with Playwright's `options`."""
    return browser.new_context(viewport=VIEWPORTS[size], device_scale_factor=1, **options)


@contextmanager
def script_watched_page(browser: Browser, size: str, timezone_id: str) -> Iterator[Page]:
    """A page in a fresh context at the size under test, on a device in `timezone_id`; fails on any script error."""
    context = open_context(browser, size, timezone_id=timezone_id)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield opened
        settle(opened)
    finally:
        context.close()
    assert errors == []


@pytest.fixture
def seat_page(browser: Browser, live_server: LiveServer, size: str) -> Iterator[Page]:
    """A fresh context at the size under test, on a device in UTC (the seats' own zone); fails on any script
    error. The server is set up first, so it is torn down last."""
    with script_watched_page(browser, size, "UTC") as opened:
        yield opened


def open_turn_page(
    page: Page, live_server: LiveServer, game_id: str, seat: int = 0, *, until_a_card_is_choosable: bool = False
) -> None:
    """Open the seat's link and wait until the turn page's script has set up the moves (and, if asked, until
    a card in the hand can be chosen)."""
    from playwright.sync_api import expect

    page.goto(live_server.link(game_id, seat))
    expect(page.locator('#table[data-script="ready"]')).to_be_visible()
    if until_a_card_is_choosable:
        expect(page.locator(".hand-card.choosable").first).to_be_visible()


def settle(page: Page) -> None:
    """Let a turn page's script finish its own requests (it marks the table ready), so none of them
    reaches the server after the test's database is gone."""
    if page.locator("#table").count():
        page.locator('#table[data-script="ready"]').wait_for(timeout=15_000)


def wholly_on_first_screen(page: Page, selector: str, *, scrolled: bool = False) -> list[str]:
    """The elements matching `selector` that do not lie wholly inside the window (the page not scrolled, unless
    `scrolled`)."""
    return list(page.evaluate(
        """([selector, scrolled]) => {
               const found = Array.from(document.querySelectorAll(selector));
               if (!found.length) { return [selector + ": none"]; }
               return found.filter((element) => {
                   const box = element.getBoundingClientRect();
                   return !((scrolled || window.scrollY === 0) && box.height > 0 && box.top >= 0
                            && box.bottom <= window.innerHeight && box.right <= window.innerWidth);
               }).map((element) => selector + " ends at " + Math.round(element.getBoundingClientRect().bottom));
           }""",
        [selector, scrolled],
    ))


# What a player must see on the turn page without scrolling: whose turn, their role, the board, the hand.
FIRST_SCREEN = ["#headline", ".status-role .role-name", "#board-wrap", ".hand-card"]


BROWSER_LOCALES = {"de": "de-DE", "ko": "ko-KR", "en": "en-US"}


@pytest.fixture
def reader(browser: Browser, size: str) -> Iterator[Callable[[str], Page]]:
    """Pages of fresh browsers at the size under test, each reading the language it is asked for (Accept-Language
    and `navigator.language`), on a device in UTC; fails on any script error."""
    contexts = []
    errors: list[str] = []

    def open_in(language: str) -> Page:
        context = open_context(browser, size, locale=BROWSER_LOCALES[language], timezone_id="UTC")
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        return page

    try:
        yield open_in
        for context in contexts:
            for page in context.pages:
                settle(page)
    finally:
        for context in contexts:
            context.close()
    assert errors == []


def english_left_on(page: Page, language: str, kept: frozenset[str]) -> list[str]:
    """English words the reader of `language` sees on the page, its labels and the script's words included (the
    time zones' IANA names and the words of `kept`, names and titles, aside)."""
    seen = page.evaluate(
        """() => {
               const zones = Array.from(document.querySelectorAll('select[name=timezone]'));
               zones.forEach((zone) => { zone.hidden = true; });  // the time zones' IANA names
               const text = [document.body.innerText,
                             ...Array.from(document.querySelectorAll('[aria-label],[title],[placeholder],[alt]'))
                                 .flatMap((e) => ['aria-label', 'title', 'placeholder', 'alt']
                                                 .map((name) => e.getAttribute(name) || ''))].join(' ');
               zones.forEach((zone) => { zone.hidden = false; });
               return text;
           }"""
    )
    return english_left(seen, language, kept)


# -- a host signing in through the page and the emailed link -----------------------------------------


def delivered_to(smtp_server: SmtpServer, deliverer: Deliverer, address: str, subject_part: str = "") -> list[str]:
    """The text parts of every message the SMTP server accepted for `address` (after sending what is due)."""
    deliverer.run()
    return [
        received.message.get_body(preferencelist=("plain",)).get_content()
        for received in smtp_server.received
        if address in received.rcpt_tos and subject_part in str(received.message["Subject"])
    ]


def sign_in_page(
    page: Page, live_server: LiveServer, smtp_server: SmtpServer, deliverer: Deliverer, email: str
) -> None:
    from playwright.sync_api import expect

    page.goto(f"{live_server.url}/host")
    page.get_by_label("Your email address").fill(email)
    page.get_by_role("button", name="Email me a host link").click()
    expect(page.locator("#link-sent")).to_be_visible()
    bodies = delivered_to(smtp_server, deliverer, email, "host link")
    assert bodies, "no host link arrived at the SMTP server"
    link = LINK.search(bodies[-1])
    assert link
    page.goto(link.group(0))
    page.get_by_role("button", name="Continue").click()
    expect(page.get_by_text(f"Signed in as {email}")).to_be_visible()


def accessible(page: Page) -> None:
    """No serious or critical axe-core violation on the page as it stands (axe-playwright-python bundles axe-core)."""
    from axe_playwright_python.sync_playwright import Axe

    page.wait_for_load_state("load")
    violations = Axe().run(page).response["violations"]
    bad = [(v["id"], v["impact"], [node["target"] for node in v["nodes"]][:3])
           for v in violations if v["impact"] in ("serious", "critical")]
    assert bad == [], f"{page.url}: {bad}"
