"""The replay and the sealed-deal check in real headless Chromium, at a phone's and a desktop's size: step with
the buttons, the arrow keys, the slider and the round jumps (without reloading the page); check a round's deal
in the browser, and see a changed deal fail; open the downloaded replay file offline and step through it.

A finished 3-player game (players who dig for the gold, so rounds are short) is stored through the service;
Ann (seat 0) looks at it. Screenshots land in artifacts/screenshots/.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

import engine
from tests.support.browser import LiveServer
from tests.support.games import dig_for_gold, store_game

pytestmark = pytest.mark.browser

Shoot = Callable[[Any, str], Path]


@pytest.fixture
def finished(live_server: LiveServer) -> str:
    runtime = live_server.runtime
    game_id = store_game(runtime, engine.new_game(["Ann", "Ben", "Cat"], seed=2), title="Friday mine")
    rng = random.Random(2)
    while True:
        state, seq = runtime.games.engine_state(game_id)
        seat = engine.to_act(state)
        if seat is None:
            return game_id
        runtime.games.submit_move(game_id, seat, dig_for_gold(state, seat, rng), seq, f"dig-{seq}")


def last_step(live_server: LiveServer, game_id: str) -> int:
    return live_server.runtime.games.engine_state(game_id)[1]


def open_replay(page: Page, live_server: LiveServer, game_id: str, step: int) -> None:
    page.goto(live_server.link(game_id, 0))
    page.goto(f"{live_server.url}/table/{game_id}/replay?step={step}")
    expect(page.locator("h1")).to_have_text(re.compile(rf"^Step {step} of "))


def heading(last: int, step: int) -> str:
    return f"Step {step} of {last}"


def test_stepping_through_a_replay_with_buttons_keys_the_slider_and_round_jumps(
    page: Page, live_server: LiveServer, finished: str, screenshots: Shoot
) -> None:
    last = last_step(live_server, finished)
    open_replay(page, live_server, finished, 0)
    page.evaluate("window.stillTheSamePage = true")
    screenshots(page, "step-0")

    page.get_by_role("link", name="Next").click()
    expect(page.locator("h1")).to_have_text(heading(last, 1))
    assert page.url.endswith(f"/table/{finished}/replay?step=1")

    page.keyboard.press("ArrowRight")
    expect(page.locator("h1")).to_have_text(heading(last, 2))
    page.keyboard.press("ArrowRight")
    expect(page.locator("h1")).to_have_text(heading(last, 3))
    page.keyboard.press("ArrowLeft")
    expect(page.locator("h1")).to_have_text(heading(last, 2))
    page.keyboard.press("End")
    expect(page.locator("h1")).to_have_text(heading(last, last))
    expect(page.locator('[data-nav="next"]')).to_have_attribute("aria-disabled", "true")
    page.keyboard.press("Home")
    expect(page.locator("h1")).to_have_text(heading(last, 0))

    page.locator("#replay-step").fill(str(last // 2))
    expect(page.locator("h1")).to_have_text(heading(last, last // 2))
    expect(page.locator("#replay-step-out")).to_have_text(str(last // 2))

    page.locator(".round-starts").get_by_role("link", name="3", exact=True).click()
    expect(page.locator(".game-title .round")).to_have_text("Round 3")
    round_three = int(page.locator("#replay-step").input_value())
    page.get_by_role("link", name="Previous").click()
    expect(page.locator("h1")).to_have_text(heading(last, round_three - 1))
    expect(page.locator(".game-title .round")).to_have_text("Round 2")
    screenshots(page, "end-of-round-2")

    assert page.evaluate("window.stillTheSamePage") is True  # every step was swapped in, never reloaded
    expect(page.locator(".replay-hand")).to_have_count(3)  # the game is over: every hand


def test_checking_a_sealed_deal_in_the_browser_and_a_changed_one_failing(
    page: Page, live_server: LiveServer, finished: str, screenshots: Shoot
) -> None:
    page.goto(live_server.link(finished, 0))
    # Round 1 was stored with the game, unsealed; round 2 was dealt (and sealed) by the game service.
    page.get_by_role("link", name="Round 2: what really happened, and its deal checked").click()

    result = page.locator("#verify-result")
    expect(result).to_have_text(re.compile("^Match: these bytes give exactly the published fingerprint"))
    expect(result).to_have_class("verify-result match")
    screenshots(page, "match")

    box = page.locator("#verify-bytes")
    sealed = box.input_value()
    tampered = re.sub(r'"salt":"(.)', lambda m: '"salt":"' + ("1" if m.group(1) == "0" else "0"), sealed, count=1)
    assert tampered != sealed
    box.fill(tampered)
    page.get_by_role("button", name="Check in this browser").click()
    expect(result).to_have_text(re.compile("^No match: these bytes give [0-9a-f]{64}, not the fingerprint above"))
    expect(result).to_have_class("verify-result mismatch")
    screenshots(page, "mismatch")

    box.fill(sealed)
    page.get_by_role("button", name="Check in this browser").click()
    expect(result).to_have_class("verify-result match")


def test_the_downloaded_replay_opens_offline_and_steps_with_the_keys(
    page: Page, live_server: LiveServer, finished: str, screenshots: Shoot, tmp_path: Path
) -> None:
    last = last_step(live_server, finished)
    page.goto(live_server.link(finished, 0))
    with page.expect_download() as download:
        page.get_by_role("link", name="Download the replay").click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.name == "friday-mine-replay.html"

    page.goto(saved.as_uri())
    expect(page.locator("h1")).to_have_text(heading(last, 0))
    page.keyboard.press("ArrowRight")
    expect(page.locator("h1")).to_have_text(heading(last, 1))
    page.get_by_role("link", name="Last").click()
    expect(page.locator("h1")).to_have_text(heading(last, last))
    assert page.url.endswith(f"#step-{last}")
    page.locator("#replay-step").fill("5")
    expect(page.locator("h1")).to_have_text(heading(last, 5))
    expect(page.locator(".replay-hand")).to_have_count(3)
    screenshots(page, "offline")

    page.reload()
    expect(page.locator("h1")).to_have_text(heading(last, 5))  # the step in the address is opened again
