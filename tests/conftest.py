"""The shared fixtures live in tests/support/, one module per harness, loaded here as plugins."""

from __future__ import annotations

import gc

import pytest

pytest_plugins = [
    "tests.support.database",
    "tests.support.games",
    "tests.support.mail",
    "tests.support.web",
    "tests.support.browser",
    "tests.support.imap",
    "tests.support.languages",
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


def pytest_collection_finish(session: pytest.Session) -> None:
    """Python's cycle collector, as tuned for a test process: what is loaded by now (modules, fixtures, the tests
    themselves) lives to the end, so it is never scanned again, and the young generation is collected after 20,000
    allocations rather than 700. Tests make and drop many short-lived objects (rows, pages, games), and scanning
    for cycles among them was a large part of their CPU (docs/performance.md). Garbage is still collected, less
    often."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)
