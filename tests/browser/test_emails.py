"""The emails' HTML parts, each kind opened in Chromium as a mail client would show it: axe-core finds no serious or
critical violation, and a screenshot of each (the turn email with its board picture in place) is kept to look at."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from pbem.clock import SettableClock
from pbem.runtime import Runtime
from tests.support.browser import accessible
from tests.support.games import Arranged, NewGame
from tests.support.inbox import ann_reaches_the_gold
from tests.support.mail import compose_waiting_mail, mailbox, shown_as_a_client_would

KINDS = ("game_started", "your_turn", "turn_reminder", "round_digest", "game_over")



def a_game_of_every_kind_of_email(runtime: Runtime, arranged_game: Arranged, clock: SettableClock) -> None:
    """Round 1 is won by the diggers (digest, then round 2's turn emails and a reminder); a last round ends the game."""
    for last in (False, True):
        ann_reaches_the_gold(runtime, arranged_game, last_round=last)
        compose_waiting_mail(runtime)
    for _ in range(26):
        clock.advance(timedelta(hours=1))
        runtime.sweep.run()
    compose_waiting_mail(runtime)


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)  # a property of the templates
def test_every_kind_of_game_email_passes_axe_and_is_kept_as_a_picture(
    runtime: Runtime, new_game: NewGame, arranged_game: Arranged, clock: SettableClock, page: Page,
    screenshots: Callable[[Any, str], Path], database_url: str,
) -> None:
    new_game()  # its game_started emails
    a_game_of_every_kind_of_email(runtime, arranged_game, clock)
    rows = {row.kind: row for row in mailbox(runtime) if row.body_html and row.kind in KINDS}
    assert set(rows) == set(KINDS)

    for kind, row in sorted(rows.items()):
        page.set_content(shown_as_a_client_would(runtime, row))
        if kind == "your_turn":
            picture = page.locator("img[alt^='The board']")
            assert picture.evaluate("image => image.complete && image.naturalWidth > 0")
        accessible(page)
        screenshots(page, kind)
