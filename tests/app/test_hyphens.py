"""Long words under the cards break at a syllable in the reader's language, never in the middle of one."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pbem.i18n.hyphens import SOFT_HYPHEN, hyphenated


def test_a_long_german_card_name_may_break_only_between_its_syllables() -> None:
    assert hyphenated("Abzweigung", "de") == f"Ab{SOFT_HYPHEN}zwei{SOFT_HYPHEN}gung"
    assert hyphenated("Spitzhacke oder Lore reparieren", "de") == (
        f"Spitz{SOFT_HYPHEN}ha{SOFT_HYPHEN}cke oder Lore re{SOFT_HYPHEN}pa{SOFT_HYPHEN}rie{SOFT_HYPHEN}ren"
    )


def test_short_words_and_korean_are_left_as_they_are() -> None:
    assert hyphenated("Kurve", "de") == "Kurve"
    assert hyphenated("갈림길 카드", "ko") == "갈림길 카드"


@given(st.text(), st.sampled_from(["de", "en", "ko"]))
def test_hyphenation_only_adds_soft_hyphens(text: str, language: str) -> None:
    assert hyphenated(text.replace(SOFT_HYPHEN, ""), language).replace(SOFT_HYPHEN, "") == text.replace(
        SOFT_HYPHEN, "")
