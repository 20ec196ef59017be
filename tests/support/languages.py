"""The compiled catalogues for tests that read German or Korean: `make test` compiles them first; a test run
without make gets them here, compiled from the .po files as `make catalogues` does (the .mo files are not
committed)."""

from __future__ import annotations

import os
import tempfile

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from pbem.i18n import TRANSLATIONS_DIR, translations


def compile_catalogues() -> None:
    """Every catalogue whose .mo is missing or older than its .po, compiled (atomically: workers may race)."""
    for source in sorted(TRANSLATIONS_DIR.glob("*/LC_MESSAGES/messages.po")):
        target = source.with_suffix(".mo")
        if target.exists() and target.stat().st_mtime >= source.stat().st_mtime:
            continue
        with source.open("rb") as handle:
            catalogue = read_po(handle, locale=source.parent.parent.name)
        descriptor, draft = tempfile.mkstemp(dir=source.parent, suffix=".mo.draft")
        with os.fdopen(descriptor, "wb") as handle:
            write_mo(handle, catalogue)
        os.replace(draft, target)
    translations.cache_clear()


@pytest.fixture(scope="session")
def compiled_catalogues() -> None:
    compile_catalogues()
