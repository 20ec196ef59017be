"""Every sentence of these emails' own templates in German and Korean: each kind rendered through the outbox's
templates in each language, down each of its branches, with values as the letters write them, and no English word
left in its inbox line, text part or HTML part (tests/support/words_left.py). The values here are the letters'
(names, times, lines of the log); the words around them are the templates'."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from pbem.i18n import in_language
from pbem.mail.outbox import email_templates, inbox_line
from pbem.mail.plain_text import wrapped
from tests.support.words_left import english_left, visible_words

pytestmark = pytest.mark.usefixtures("compiled_catalogues")

NAMES = frozenset({"Ann", "Ben", "Cat", "Friday", "mine", "Old", "Cy", "Hallo", "gut"})  # names, and what they said
LINK = {"link": "https://pbem.test/play/x", "link_max_age_days": 30, "rules_url": "https://pbem.test/rules"}
BASE = {"game_title": "Friday mine", "recipient_name": "Ann", **LINK}
SAID = [{"name": "Ben", "system": False, "when": "12:00", "lines": ["Hallo", "gut"]},
        {"name": "", "system": True, "when": "12:05", "lines": ["..."]}]
CHAT = {"chat": SAID, "chat_more": 2, "chat_zone": "UTC"}
SEATS = [{"name": "Ann", "is_you": True, "role": "X", "gold_cards": 1, "trapped": True, "gold_pieces": 2},
         {"name": "Ben", "is_you": False, "role": "Y", "gold_cards": 0, "trapped": False, "gold_pieces": 0}]
ROUND = {"round": 1, "outcome": "…", "treasure": False, "seats": SEATS, "spare_roles": ["Z"],
         "saboteur_pay": [{"name": "Ben", "nuggets": 3, "due": 4, "card_count": 2},
                          {"name": "Cat", "nuggets": 1, "due": 1, "card_count": 1}]}
TREASURE = {**ROUND, "treasure": True, "hats_swapped": 2, "share_line": "…", "payouts": ["…"], "thefts": ["…"]}


class Recap:
    round = 1
    seats = [{"name": "Ann"}, {"name": "Ben"}]
    spare_roles = ["Z"]
    entries: list[Any] = []

    def roles_of(self, seat: int) -> str:
        return "X"


TRUST = {"recap": Recap(), "opened": SimpleNamespace(round=1, commitment="ab" * 32),
         "sealed": SimpleNamespace(round=2, commitment="cd" * 32)}
TABLE = [{"name": "Ann", "is_you": True, "hand_count": 5, "broken": [], "gold_cards": 1, "to_act": True},
         {"name": "Ben", "is_you": False, "hand_count": 1, "broken": ["…"], "gold_cards": 0, "to_act": False}]
DAILY = {"day": "…", "round": 1, "rounds": 3, "paused": True, "waiting_since": "…", "deadline": "…",
         "deadline_moved_from": "…", "table": TABLE, "board_cards": 3, "goals_revealed": 1, "draw_pile": 30,
         "lines": ["…"], "more": 2, "to_act_name": "Ben", **CHAT}
REMINDER = {"waited": "…", "waiting_since": "…", "deadline": "…", "left": "…", "deadline_moved_from": "…",
            "at_deadline": "…"}
PLAYERS = [{"name": "Ann", "is_you": True, "is_bot": False, "total": 5, "gold": [3, 2], "winner": True},
           {"name": "Ben", "is_you": False, "is_bot": True, "total": 1, "gold": [], "winner": False}]
STARTED = {"seat_number": 1, "players": PLAYERS, "first_player": "Ben", "deadline_hours": 48,
           "rematch_of": {"title": "Old mine", "link": "https://pbem.test/play/y"}, "own_deck": True, **TRUST}
OVER = {"players": PLAYERS, "winners": ["Ann", "Ben"], "winners_named": "…", "won_with": "Ben", "unit": "…",
        "units": "…", "rounds": [ROUND], **TRUST}
HANDOVER = {"old_name": "Cy", "started": True, "round": 2, "role": "X", "hand": ["…"], "peeks": ["…"], "gold": "…"}

CASES: list[tuple[str, dict[str, Any]]] = [
    ("address_change", {"new_email": "new@example.org", "confirm_url": "https://pbem.test/c", "confirm_days": 7}),
    ("chat_messages", CHAT),
    ("chat_messages", {**CHAT, "chat": [{**SAID[0], "name": ""}]}),
    ("daily_digest", {**DAILY, "your_turn": True, "gold_pick": True}),
    ("daily_digest", {**DAILY, "your_turn": True, "gold_pick": False, "deadline_moved_from": None,
                      "waiting_since": None, "paused": False}),
    ("daily_digest", {**DAILY, "your_turn": False, "gold_pick": False, "lines": [], "more": 0,
                      "table": [{**seat, "has_gold": index == 0} for index, seat in enumerate(TABLE)]}),
    ("deadline_passed", {"waited": "…", "waiting_since": "…", "lines": ["…"], "host_decides": False, "by_host": True}),
    ("deadline_passed", {"waited": "…", "waiting_since": "…", "lines": [], "host_decides": True, "by_host": False}),
    ("deadline_warning", {**REMINDER, "decision": "turn"}),
    ("deadline_warning", {**REMINDER, "decision": "gold pick", "deadline_moved_from": None}),
    ("deadline_warning", {**REMINDER, "decision": "decision about your Theft"}),
    ("fresh_link", {}),
    ("game_closed", {"how": "ended", "standings": "Ann 3, Ben 1"}),
    ("game_closed", {"how": "abandoned", "standings": ""}),
    ("game_over", {**OVER, "you_won": True, "treasure": False}),
    ("game_over", {**OVER, "you_won": False, "treasure": True, "rounds": [TREASURE]}),
    ("game_started", {**STARTED, "your_turn": True, "variant": "saboteur"}),
    ("game_started", {**STARTED, "your_turn": False, "variant": "saboteur2", "deadline_hours": None,
                      "rematch_of": {"title": "Old mine", "link": None}}),
    ("handover", HANDOVER),
    ("handover", {**HANDOVER, "peeks": [], "hand": []}),
    ("handover", {**HANDOVER, "started": False}),
]


def written(kind: str, context: dict[str, Any], language: str) -> tuple[str, str, str]:
    """(inbox line, text part, HTML part) as the outbox writes them."""
    templates = email_templates()
    with in_language(language):
        text = wrapped(templates.get_template(f"email/{kind}.txt").render({**BASE, **context}))
        html = templates.get_template(f"email/{kind}.html").render(
            {**BASE, **context, "preheader": inbox_line(text)}
        )
    return inbox_line(text), text, html


@pytest.mark.parametrize("language", ["de", "ko"])
@pytest.mark.parametrize(("kind", "context"), CASES, ids=[f"{kind}-{n}" for n, (kind, _) in enumerate(CASES)])
def test_no_english_is_left_in_the_templates_words(kind: str, context: dict[str, Any], language: str) -> None:
    line, text, html = written(kind, context, language)

    assert line
    assert english_left(text, language, NAMES) == [], text
    assert english_left(visible_words(html), language, NAMES) == [], html
    assert f'<html lang="{language}">' in html


@pytest.mark.parametrize(("kind", "context"), CASES[:4], ids=[kind for kind, _ in CASES[:4]])
def test_a_game_title_is_quoted_as_the_language_quotes(kind: str, context: dict[str, Any]) -> None:
    assert "„Friday mine“" in written(kind, context, "de")[1]
    assert "“Friday mine”" in written(kind, context, "ko")[1]
    assert '"Friday mine"' in written(kind, context, "en")[1]
