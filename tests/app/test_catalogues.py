"""The catalogues are complete for what is marked: every message `make messages` extracts (babel.cfg) is in the
German and the Korean catalogue, translated in every plural form, not fuzzy, passes Babel's own checks, and keeps
the source's placeholders and markup exactly. Words not marked for translation yet are not extracted, so they are
not counted here."""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from pbem.i18n import SUPPORTED, TRANSLATIONS_DIR
from pbem.paths import REPO_ROOT

TRANSLATED = [language for language in SUPPORTED if language != "en"]
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")
TAG = re.compile(r"</?([a-z]+)")


@cache
def extracted() -> Catalog:
    """What `make pot` extracts now, from this checkout (the Makefile's keywords and babel.cfg's mapping)."""
    pot = Path(tempfile.mkdtemp()) / "messages.pot"
    subprocess.run(
        ["make", "--no-print-directory", "-s", "pot", f"POT={pot}", f"BIN={Path(sys.executable).parent}"],
        cwd=REPO_ROOT, check=True, capture_output=True,
    )
    with pot.open("rb") as handle:
        return read_po(handle)


def catalogue(language: str) -> Catalog:
    with (TRANSLATIONS_DIR / language / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        return read_po(handle, locale=language)


def forms(message: Message) -> list[str]:
    return list(message.string) if isinstance(message.string, (list, tuple)) else [message.string or ""]


def sources(message: Message) -> list[str]:
    return list(message.id) if isinstance(message.id, (list, tuple)) else [message.id]


def test_something_is_extracted() -> None:
    """The guard itself: the extraction finds the home page's words, so an empty list below means something."""
    assert "Saboteur, played by email" in {message.id for message in extracted()}


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_extracted_message_is_translated_and_none_is_fuzzy(language: str) -> None:
    translated = catalogue(language)

    missing = [
        message.id for message in extracted() if message.id
        and ((found := translated.get(message.id, message.context)) is None
             or "fuzzy" in found.flags or not all(form.strip() for form in forms(found)))
    ]

    assert missing == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_babels_checks_pass(language: str) -> None:
    """Babel's checks, but for a count in a language of one plural form (Korean): Babel compares its one form with
    the singular too, which names no count ("a card"); the test below holds it to the plural's placeholders."""
    translated = catalogue(language)
    one_form = translated.num_plurals == 1

    problems = [
        (message.id, [str(error) for error in errors]) for message, errors in translated.check()
        if not (one_form and message.pluralizable)
    ]

    assert problems == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_each_translation_keeps_the_sources_placeholders_and_markup(language: str) -> None:
    """Each form has exactly the placeholders and tags of its source: the first form the singular's, the others the
    plural's (a language of one form, as Korean, says the plural's words, count included)."""
    changed = []
    for message in catalogue(language):
        if not message.id:
            continue
        said = forms(message)
        singular, *plural = sources(message)
        for index, form in enumerate(said):
            source = singular if index == 0 and len(said) > 1 or not plural else plural[-1]
            for pattern in (PLACEHOLDER, TAG):
                if sorted(pattern.findall(form)) != sorted(pattern.findall(source)):
                    changed.append((message.id, form))

    assert changed == []
