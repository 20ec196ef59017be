"""Compiling the catalogues (.po to the .mo the server reads), for `make` and the tests; the wheel's build compiles
its own the same way (hatch_build.py, which cannot import pbem).

As `pybabel compile --statistics` does, fuzzy entries left out, but without its one false alarm: a language of one
plural form (Korean) says the plural's count, and Babel also compares that form with the singular, which names none
("%(name)s drew a card"). tests/app/test_catalogues.py holds every form to its own source's placeholders instead.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from pbem.i18n.catalogues import TRANSLATIONS_DIR


def compile_catalogue(source: Path) -> str:
    """`source` (…/<lang>/LC_MESSAGES/messages.po) compiled beside it, atomically; what was translated, in words."""
    language = source.parent.parent.name
    with source.open("rb") as handle:
        catalogue = read_po(handle, locale=language)
    descriptor, draft = tempfile.mkstemp(dir=source.parent, suffix=".mo.draft")
    with os.fdopen(descriptor, "wb") as handle:
        write_mo(handle, catalogue)
    os.replace(draft, source.with_suffix(".mo"))
    messages = [message for message in catalogue if message.id]
    done = [message for message in messages if message.string and "fuzzy" not in message.flags
            and all(message.string if isinstance(message.string, tuple) else [message.string])]
    return f"{len(done)} of {len(messages)} messages translated in {source}"


def compile_outdated(directory: Path = TRANSLATIONS_DIR) -> list[str]:
    """Every catalogue whose .mo is missing or older than its .po."""
    said = []
    for source in sorted(directory.glob("*/LC_MESSAGES/messages.po")):
        target = source.with_suffix(".mo")
        if not target.exists() or target.stat().st_mtime < source.stat().st_mtime:
            said.append(compile_catalogue(source))
    return said


if __name__ == "__main__":  # `python -m pbem.i18n.compiling <messages.po>...` (the Makefile)
    for path in sys.argv[1:]:
        print(compile_catalogue(Path(path)))
