"""The translation functions (pbem/i18n): a browser's first supported language by its q-values, `in_language`
nesting and restoring, words translated when a lazy one is used, and English words where no catalogue answers."""

from __future__ import annotations

import pytest

from pbem.i18n import (
    browser_language,
    current_language,
    gettext,
    in_language,
    lazy_gettext,
    ngettext,
    pgettext,
    reading_language,
    supported,
)

pytestmark = pytest.mark.usefixtures("compiled_catalogues")


@pytest.mark.parametrize(("header", "language"), [
    ("ko-KR,ko;q=0.9,en-US;q=0.8", "ko"),
    ("fr-CH, fr;q=0.9, de;q=0.7, ko;q=0.8", "ko"),  # by quality, not by place
    ("de-AT", "de"),
    ("en;q=0, de;q=0.1", "de"),  # q=0: not wanted at all
    ("fr, es;q=0.5", None),
    ("*", None),
    ("", None),
    (None, None),
    ("de;q=banana, ko", "ko"),
])
def test_a_browser_reads_its_first_supported_language_by_quality(header: str | None, language: str | None) -> None:
    assert browser_language(header) == language


def test_a_reader_reads_the_first_choice_the_server_speaks() -> None:
    assert reading_language(None, "fr", "ko", "de") == "ko"
    assert reading_language(None, None, None) == "en"
    assert supported("DE") == "de" and supported("xx-YY") is None


def test_in_language_nests_and_restores_the_language_before_it() -> None:
    with in_language("de"):
        outer = gettext("Sorry")
        with in_language("ko"):
            inner = (current_language(), gettext("Sorry"))
        after = (current_language(), gettext("Sorry"))

    assert outer == "Das hat leider nicht geklappt"
    assert inner == ("ko", "죄송해요")
    assert after == ("de", "Das hat leider nicht geklappt")
    assert (current_language(), gettext("Sorry")) == ("en", "Sorry")


def test_a_language_the_server_does_not_speak_writes_english() -> None:
    with in_language("fr") as language:
        assert (language, gettext("Sorry")) == ("en", "Sorry")


def test_a_lazy_word_is_translated_where_it_is_used() -> None:
    word = lazy_gettext("Sorry")

    with in_language("de"):
        german = str(word)
    with in_language("ko"):
        korean = str(word)

    assert (german, korean, str(word)) == ("Das hat leider nicht geklappt", "죄송해요", "Sorry")


def test_variables_fill_the_translated_sentence_and_counts_choose_the_form() -> None:
    with in_language("de"):
        one = ngettext("%(num)d card", "%(num)d cards", 1)
        three = ngettext("%(num)d card", "%(num)d cards", 3)
        host = gettext("Host: %(title)s - Saboteur", title="Mine")
        card = pgettext("card", "Map")

    assert (one, three, host, card) == ("1 Karte", "3 Karten", "Spielleitung: Mine - Saboteur", "Schatzkarte")


def test_a_word_no_catalogue_knows_stays_as_written() -> None:
    with in_language("ko"):
        assert gettext("Words nobody marked %(x)s", x=1) == "Words nobody marked 1"
