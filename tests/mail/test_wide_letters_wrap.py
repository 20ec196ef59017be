"""An email's text part fits 76 columns in Korean too: a Hangul letter takes two columns, so a Korean line breaks at
about half the letters of an English one, at its spaces, keeping its indent; English lines wrap as they always did."""

from __future__ import annotations

import textwrap

from pbem.mail.plain_text import WIDTH, columns, wrapped

KOREAN = ("이 링크는 나만 써야 해요. 링크를 가진 사람은 누구나 내 자리에서 플레이할 수 있어요. "
          "링크는 30일 동안 유효하고, 이메일마다 새 링크가 함께 와요.")


def test_a_hangul_letter_takes_two_columns() -> None:
    assert (columns("abc"), columns("링크"), columns("링크 ok")) == (3, 4, 7)


def test_a_korean_paragraph_breaks_at_spaces_within_the_width() -> None:
    lines = wrapped(KOREAN).split("\n")

    assert len(lines) > 1
    assert all(columns(line) <= WIDTH for line in lines)
    assert " ".join(lines) == KOREAN


def test_an_item_keeps_its_hanging_indent_in_korean() -> None:
    lines = wrapped("  - " + KOREAN).split("\n")

    assert lines[0].startswith("  - ") and all(line.startswith("    ") for line in lines[1:])
    assert all(columns(line) <= WIDTH for line in lines)


def test_english_wraps_as_textwrap_does() -> None:
    english = "This link is yours alone: anyone who has it can play your seat. " * 3

    assert wrapped(english) == "\n".join(textwrap.wrap(english, width=WIDTH, break_long_words=False,
                                                       break_on_hyphens=False))
