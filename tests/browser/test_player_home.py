"""In Chromium, at a phone's and a desktop's size: a player signs in from the home page through the emailed link
(delivered to the SMTP test server), sees two games in the right order, opens one and plays; a spectator watches
a running game and a game after a round has ended. Each page has no serious or critical axe-core violation."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Page, expect

import engine
from pbem.mail.deliver import Deliverer
from tests.support.browser import LiveServer, accessible, delivered_to, save_screenshot, settle
from tests.support.games import PEOPLE, play_until_turn_of
from tests.support.mail import SmtpServer

pytestmark = pytest.mark.browser

SIGN_IN = re.compile(r"https?://\S+/sign-in/\S+")


def shoot(page: Page, name: str) -> None:
    """Screenshots for looking at: 390x844 on the phone, 1440x900 on the desktop."""
    width = page.viewport_size["width"] if page.viewport_size else 0
    if width > 390:
        page.set_viewport_size({"width": 1440, "height": 900})
    save_screenshot(page, "home", f"{name}-{'phone' if width <= 390 else 'desktop'}")


def started(live_server: LiveServer, title: str) -> str:
    runtime = live_server.runtime
    game_id = runtime.games.create_game(
        title=title, players=list(PEOPLE), host_email="host@example.org",
    )
    runtime.games.start_game(game_id)
    return game_id


def test_a_player_signs_in_by_email_sees_their_games_in_order_and_plays(
    page: Page, live_server: LiveServer, smtp_server: SmtpServer, smtp_deliverer: Deliverer,
) -> None:
    waiting = started(live_server, "Waiting on Ben")
    mine = started(live_server, "Ann to play")
    play_until_turn_of(live_server.runtime, waiting, 1)
    play_until_turn_of(live_server.runtime, mine, 0)

    page.goto(live_server.url)
    accessible(page)
    shoot(page, "home")
    page.get_by_label("Your email address").first.fill("ann@example.org")
    page.get_by_role("button", name="Email me a sign-in link").click()
    expect(page.locator("#link-sent")).to_be_visible()
    accessible(page)
    shoot(page, "link-sent")
    bodies = delivered_to(smtp_server, smtp_deliverer, "ann@example.org", "My games")
    link = SIGN_IN.search(bodies[-1])
    assert link, bodies
    page.goto(link.group(0))
    accessible(page)
    shoot(page, "continue")
    page.get_by_role("button", name="Sign in").click()

    expect(page.locator(".open-game")).to_have_text(["Ann to play", "Waiting on Ben"])
    accessible(page)
    shoot(page, "my-games")
    page.get_by_role("link", name="Ann to play").click()
    page.locator('#table[data-script="ready"]').wait_for()  # the hand answers taps once the page's script runs
    card = engine.view(live_server.runtime.games.engine_state(mine)[0], 0)["you"]["hand"][0]
    page.locator(f'.hand-card[data-card="{card["id"]}"]').click()
    page.get_by_role("button", name="Discard it (pass)").click()
    page.get_by_role("button", name="Play it").click()
    expect(page.locator(".message.played")).to_contain_text("You passed")
    settle(page)

    page.goto(f"{live_server.url}/my-games/preferences")
    accessible(page)
    shoot(page, "preferences")


def test_a_spectator_watches_a_running_game_and_one_whose_round_is_over(page: Page, live_server: LiveServer) -> None:
    runtime = live_server.runtime
    game_id = started(live_server, "Watched mine")
    play_until_turn_of(runtime, game_id, 2)
    url = runtime.spectators.create(game_id, show_chat=True, actor_email="host@example.org")
    runtime.chat.post(game_id, 0, "Good luck, everyone")

    page.goto(url)
    expect(page.locator("#game-state")).to_contain_text("Round 1 of 3")
    expect(page.locator("#rounds-over")).to_have_count(0)
    expect(page.locator(".hand-card")).to_have_count(0)
    accessible(page)
    shoot(page, "spectator-running")

    rng = random.Random(2)
    while runtime.games.engine_state(game_id)[0].round == 1:
        state, seq = runtime.games.engine_state(game_id)
        mover = engine.to_act(state)
        assert mover is not None
        runtime.games.submit_move(game_id, mover, engine.bots.choose(state, mover, rng), seq, f"m{seq}")

    page.reload()
    expect(page.locator("#rounds-over")).to_contain_text("Round 1:")
    expect(page.locator("#rounds-over")).to_contain_text("Dwarf cards:")
    recap = page.locator(".watch-recap")
    expect(recap).not_to_have_attribute("open", "")  # the move-by-move recap waits behind one tap
    expect(recap.locator(".recap")).to_be_hidden()
    accessible(page)
    shoot(page, "spectator-round-over")
    recap.locator("summary").click()
    expect(recap.locator(".recap li").first).to_be_visible()
    accessible(page)
    shoot(page, "spectator-recap-open")
