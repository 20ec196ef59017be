"""A player's one email a day across games is written in the language of the game it lists first (where it is their
turn, least time left first), and says so in Content-Language."""

from __future__ import annotations

from datetime import timedelta

import pytest

from pbem.clock import SettableClock
from pbem.runtime import Runtime
from pbem.service.players.access import player
from pbem.service.players.preferences import Preferences
from tests.service.test_player_daily import DAY_ONE, dailies, deadline_in, sweep_at
from tests.support.games import PEOPLE, play_until_turn_of

pytestmark = pytest.mark.usefixtures("compiled_catalogues")


def test_the_daily_email_is_in_the_language_of_the_game_it_lists_first(runtime: Runtime, clock: SettableClock) -> None:
    games = {}
    for language in ("de", "ko"):
        games[language] = runtime.games.create_game(title=f"Mine {language}", players=list(PEOPLE),
                                                    host_email="host@example.org", language=language)
        runtime.games.start_game(games[language])
        play_until_turn_of(runtime, games[language], 0)
    runtime.player_home.set_preferences(player("ann@example.org"), Preferences(
        timezone="UTC", quiet_hours="", notify_mode="daily"))
    deadline_in(runtime, games["ko"], timedelta(days=1))
    deadline_in(runtime, games["de"], timedelta(days=3))

    sweep_at(runtime, clock, DAY_ONE + timedelta(hours=9, minutes=5))

    (daily,) = dailies(runtime, "ann@example.org")
    assert daily.headers["Content-Language"] == "ko"
