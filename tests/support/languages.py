"""The compiled catalogues for tests that read German or Korean: `make test` compiles them first; a test run
without make gets them here, as `make catalogues` compiles them (the .mo files are not committed)."""

from __future__ import annotations

import pytest

from pbem.i18n import translations
from pbem.i18n.compiling import compile_outdated


def compile_catalogues() -> None:
    """Every catalogue whose .mo is missing or older than its .po, compiled (atomically: workers may race)."""
    compile_outdated()
    translations.cache_clear()


@pytest.fixture(scope="session")
def compiled_catalogues() -> None:
    compile_catalogues()
