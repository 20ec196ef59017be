"""What each email says in an inbox list, before it is opened, and that a game's emails stay one conversation.

The subject is the game's own for every email of a game (Gmail, Apple Mail and Outlook group by it, with the
References and Thread-Topic headers); what an email wants is its inbox line: the first line of the text part,
repeated hidden at the top of the HTML part, which the clients show under the subject (docs/email.md). The sender's
name says it too (tests/mail/test_inbox_rows.py).
"""

from __future__ import annotations

import re
from datetime import timedelta
from email.parser import Parser
from email.policy import default
from pathlib import Path

import pytest

import engine
from pbem.clock import SettableClock
from pbem.mail.message import build_message, outgoing_mail
from pbem.mail.outbox import email_templates, inbox_line
from pbem.models import OutboxMessage
from pbem.paths import TEMPLATES_DIR
from pbem.runtime import Runtime
from tests.support.games import Arranged, NewGame, play
from tests.support.inbox import ann_reaches_the_gold
from tests.support.mail import compose_waiting_mail, mailbox

KINDS = sorted(path.stem for path in (Path(TEMPLATES_DIR) / "email").glob("[a-z]*.txt"))


def hidden_preheader(html: str) -> str:
    """The text of the HTML part's hidden first block, without the spacing characters that follow it."""
    found = re.search(r'<body[^>]*>\s*<div style="display:none;[^"]*">([^<&]*)', html)
    assert found is not None, "no hidden preheader at the top of the HTML part"
    return found.group(1)


def lines_to(runtime: Runtime, address: str) -> list[tuple[str, str, str]]:
    """(kind, subject, inbox line) of every email to `address`, in the order they were queued."""
    compose_waiting_mail(runtime)
    return [(row.kind, row.subject or "", inbox_line(row.body_text or "")) for row in mailbox(runtime, to=address)]


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_of_email_starts_with_its_inbox_line(kind: str) -> None:
    template = email_templates().get_template(f"email/{kind}.txt")

    assert "preheader" in template.blocks, f"{kind}.txt says nothing for the inbox list"


def test_the_turn_email_and_the_reminders_say_what_they_want_under_the_games_own_subject(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    game_id = new_game()
    state, _ = runtime.games.engine_state(game_id)
    first = engine.to_act(state)
    assert first is not None
    play(runtime, game_id, first, {"type": "pass", "cards": [state.hands[first][0]]})
    second = runtime.games.current_state(game_id).to_act
    assert second is not None
    address = f"{state.players[second].lower()}@example.org"

    for _ in range(2 * 24):  # two days of hourly sweeps: the first reminders of the ladder
        clock.advance(timedelta(hours=1))
        runtime.sweep.run()
    lines = lines_to(runtime, address)

    assert lines[0] == (
        "game_started", "Test mine - Saboteur", f"The game has started: {state.players[first]} plays first")
    assert ("your_turn", "Re: Test mine - Saboteur", "Your turn: play by Thu 8 Jan 2026, 09:00 UTC") in lines
    reminders = [line for kind, _, line in lines if kind == "turn_reminder"]
    assert reminders[:2] == ["Reminder: your turn since yesterday", "Reminder: your turn since Monday"]
    opener = [line for kind, _, line in lines_to(runtime, f"{state.players[first].lower()}@example.org")]
    assert opener[0] == "Your turn first: the game has started"


def test_a_round_digest_says_who_won_and_game_over_says_who_won_the_game(
    runtime: Runtime, arranged_game: Arranged
) -> None:
    ann_reaches_the_gold(runtime, arranged_game, last_round=False)
    digests = [row for row in mailbox(runtime, "round_digest", to="ann@example.org") if row.body_text]

    assert [inbox_line(row.body_text or "") for row in digests] == ["Round 1 is over: the gold-diggers won"]

    ann_reaches_the_gold(runtime, arranged_game, last_round=True)
    [over] = mailbox(runtime, "game_over", to="ann@example.org")
    assert re.fullmatch(r"Game over: (you won( with .+)?|.+ won)", inbox_line(over.body_text or ""))


def test_every_email_of_a_game_threads_on_one_subject_root_and_topic(
    runtime: Runtime, arranged_game: Arranged
) -> None:
    ann_reaches_the_gold(runtime, arranged_game, last_round=False)
    compose_waiting_mail(runtime)
    rows = [row for row in mailbox(runtime, to="ann@example.org") if row.body_text]
    assert {row.kind for row in rows} >= {"round_digest"}

    root = rows[0]
    for row in rows:
        message = Parser(policy=default).parsestr(as_wire(row))  # as every backend sends it
        assert message["Thread-Topic"] == "Test mine - Saboteur"
        assert re.sub(r"^(Re: )+", "", message["Subject"]) == "Test mine - Saboteur"
        if row.id != root.id:
            assert message["Subject"] == "Re: Test mine - Saboteur"
            assert message["In-Reply-To"] == root.message_id
            assert message["References"] == root.message_id
        assert hidden_preheader(row.body_html or "") == inbox_line(row.body_text or "")


def as_wire(row: OutboxMessage) -> str:
    return build_message(outgoing_mail(row), "Saboteur <game@pbem.test>").as_string()
