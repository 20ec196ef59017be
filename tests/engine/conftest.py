"""Fixtures for rules tests (see tables.py for the notation)."""
from __future__ import annotations

from collections.abc import Callable

import pytest

from engine.state import Game
from tests.support.tables import arrange, card_in_hand


@pytest.fixture
def table() -> Callable[..., Game]:
    return arrange


@pytest.fixture
def hand_card() -> Callable[[Game, int, str], int]:
    return card_in_hand
