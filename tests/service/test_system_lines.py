"""The lines the server posts into table talk (the host's actions, the turn's clock) are stored in English for every
reader and read back in each reader's language (pbem/service/talk/system_lines.py): a pause, an extension counted in
hours, a timeout after a span of time, a refused move, a seat changing hands."""

from __future__ import annotations

import pytest

from pbem.i18n import in_language
from pbem.service.talk.system_lines import DONE_FOR, SYSTEM_LINES, read_system_line, system_line, timed_out_line

pytestmark = pytest.mark.usefixtures("compiled_catalogues")


def every_line() -> list[str]:
    lines = []
    for kind, line in SYSTEM_LINES.items():
        values = {"name": "Ann", "num": 2, "waited": "2 days and 3 hours", "seat": 2, "new_name": "Eve",
                  "old_name": "Ben", "to_seq": 4, "reason": "a slip", "standings": "Ann 3, Ben 0"}
        lines.append(system_line(kind, **values))
        if isinstance(line, tuple):
            lines.append(system_line(kind, **{**values, "num": 1}))
    return lines


def test_the_stored_lines_are_the_english_the_table_read_before() -> None:
    assert system_line("extended", name="Ann", num=1) == "The host gave Ann 1 more hour for this turn."
    assert system_line("extended", name="Ann", num=3) == "The host gave Ann 3 more hours for this turn."
    assert system_line("absent", name="Bo", num=1) == "Bo has timed out 1 turns in a row; the host is asked what to do."
    assert timed_out_line("Cy", "gold", by_host=False, waited="2 days and 3 hours") == (
        "Cy ran out of time after 2 days and 3 hours: they got the highest gold card on offer."
    )
    assert timed_out_line("Cy", "pass", by_host=True, waited="") == "Cy was skipped by the host: the game moved on."
    assert [timed_out_line("Cy", done, by_host=True, waited="") for done in DONE_FOR] == [
        "Cy was skipped by the host: a card was discarded face down for them.",
        "Cy was skipped by the host: a computer player took the turn.",
        "Cy was skipped by the host: they got the highest gold card on offer.",
        "Cy was skipped by the host: their Theft was let go.",
    ]


def test_in_english_a_line_reads_back_as_it_was_stored_and_other_text_as_it_is() -> None:
    assert [read_system_line(line) for line in every_line()] == every_line()
    assert read_system_line("Ann: the host paused the game.") == "Ann: the host paused the game."


@pytest.mark.parametrize(("language", "said"), [
    ("de", ["Die Spielleitung hat Ann für diesen Zug 1 Stunde mehr gegeben.",
            "Cy hat nach 2 Tagen und 3 Stunden die Zeit überschritten und die höchste angebotene Goldkarte bekommen.",
            "Bo hat 3 Züge in Folge die Zeit überschritten; die Spielleitung wird gefragt, was geschehen soll."]),
    ("ko", ["방장이 Ann 님에게 이번 차례 시간을 1시간 더 줬어요.",
            "Cy 님이 2일 3시간 만에 차례 시간을 넘겼어요. 남은 금 카드 중 가장 높은 카드를 대신 받았어요.",
            "Bo 님이 3번 연속으로 차례 시간을 넘겼어요. 어떻게 할지 방장에게 물어봐요."]),
])
def test_every_line_reads_back_in_the_readers_language(language: str, said: list[str]) -> None:
    stored = [system_line("extended", name="Ann", num=1),
              timed_out_line("Cy", "gold", by_host=False, waited="2 days and 3 hours"),
              system_line("absent", name="Bo", num=3)]
    with in_language(language):
        read = [read_system_line(line) for line in stored]
        everything = [read_system_line(line) for line in every_line()]

    assert read == said
    assert [line for line, back in zip(every_line(), everything, strict=True) if back in (None, line)] == []
