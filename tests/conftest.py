"""The shared fixtures live in tests/support/, one module per harness, loaded here as plugins."""

from __future__ import annotations

import pytest

pytest_plugins = [
    "tests.support.database",
    "tests.support.games",
    "tests.support.mail",
    "tests.support.web",
    "tests.support.browser",
    "tests.support.imap",
]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked exhaustive (the full runs behind a sampled test) run only when asked for by name:
    `pytest -m exhaustive`. The long tests (marked slow) come first, so that spread over several processes none of
    them starts last and keeps the others waiting."""
    if "exhaustive" not in config.getoption("markexpr", ""):
        chosen = [item for item in items if item.get_closest_marker("exhaustive") is None]
        if len(chosen) < len(items):
            config.hook.pytest_deselected(items=[item for item in items if item not in chosen])
            items[:] = chosen
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
