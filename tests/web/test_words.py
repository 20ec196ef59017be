"""The words people read, as they read them: real plurals, a rematch's title said once, one wording of a round's
result wherever it is told, links on lines of their own, text parts that fit an 80-column reader, and a README
that says what the page does."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest
from flask.testing import FlaskClient

import engine
from pbem.mail.plain_text import wrapped
from pbem.paths import TEMPLATES_DIR
from pbem.runtime import Runtime
from pbem.service.host.rematch import rematch_title
from pbem.service.turns.values import MAX_TITLE
from tests.support.games import PEOPLE, Arranged, NewGame, play_moves
from tests.support.mail import mailbox
from tests.support.spectators import confirmation_path, spectator_path
from tests.support.tables import TO_THE_GOALS, arrange, card_in_hand
from tests.support.web import open_table, post, with_csrf

ROOT = Path(__file__).parents[2]
GUESSED_PLURAL = re.compile(r"[A-Za-z]\(s\)")  # "nugget(s)"
URL_LINE = re.compile(r"\s*https?://\S+")
LONGEST_LINE = 78


def said_strings(path: Path) -> list[str]:
    """The string literals of a module that are not docstrings: what it may say to someone."""
    tree = ast.parse(path.read_text())
    docstrings = {
        id(node.body[0].value) for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body
        and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)
    }
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings]


def test_no_page_email_or_message_guesses_a_plural_with_s_in_brackets() -> None:
    templates = [path for path in Path(TEMPLATES_DIR).rglob("*") if path.suffix in (".html", ".txt")]
    modules = [*(ROOT / "engine").rglob("*.py"), *(ROOT / "pbem").rglob("*.py")]

    found = [f"{path}: {text}" for path in templates for text in [path.read_text()] if GUESSED_PLURAL.search(text)]
    found += [f"{path}: {text}" for path in modules for text in said_strings(path) if GUESSED_PLURAL.search(text)]

    assert found == []


@pytest.mark.parametrize(("gold_cards", "said"), [
    ([], "Your gold so far: 0 nuggets"),
    ([1], "Your gold so far: 1 nugget (1)"),
    ([2, 1], "Your gold so far: 3 nuggets (2 + 1)"),
])
def test_the_handover_email_counts_the_seats_gold_in_real_plurals(
    host: FlaskClient, runtime_of: Runtime, arranged_game: Arranged, gold_cards: list[int], said: str
) -> None:
    game_id = arranged_game(arrange(3, gold_cards={1: gold_cards}))

    post(host, f"/host/games/{game_id}/seats/1/replace", confirm="yes", name="Eve", email="eve@example.org")

    [handover] = mailbox(runtime_of, "handover", to="eve@example.org")
    assert f"  {said}" in (handover.body_text or "").split("\n")


def test_a_rematch_title_counts_the_rematches_in_one_suffix() -> None:
    first = rematch_title("Invite mine")
    second = rematch_title(first)
    third = rematch_title(second)

    assert (first, second, third) == ("Invite mine (rematch)", "Invite mine (rematch 2)", "Invite mine (rematch 3)")
    long = rematch_title("x" * MAX_TITLE)
    assert len(long) == MAX_TITLE and long.endswith("x (rematch)")


def test_the_turn_email_names_the_round_before_the_title_so_no_brackets_pile_up(runtime: Runtime) -> None:
    game_id = runtime.games.create_game(title="Invite mine (rematch)", players=PEOPLE, host_email="host@example.org")
    runtime.games.start_game(game_id)
    play_moves(runtime, game_id, 1, random.Random(1))

    turn = [row for row in mailbox(runtime, "your_turn") if row.body_text][-1]

    assert 'It is your turn in round 1 of "Invite mine (rematch)".' in (turn.body_text or "")
    assert "in round 1 of Invite mine (rematch).</p>" in (turn.body_html or "")
    assert ") (" not in (turn.body_text or "") + (turn.body_html or "")


def test_the_rematch_welcome_email_gives_the_old_games_link_a_line_of_its_own(
    host: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    post(host, f"/host/games/{game_id}/end", confirm="yes")
    post(host, f"/host/games/{game_id}/rematch", confirm="yes", order="rotated")

    welcomes = [row for row in mailbox(runtime_of, "game_started") if "rematch of" in (row.body_text or "")]

    assert len(welcomes) == 3
    for row in welcomes:
        lines = (row.body_text or "").split("\n")
        at = lines.index('It is a rematch of "Test mine".')
        assert lines[at + 1] == "How that game ended:"
        assert URL_LINE.fullmatch(lines[at + 2]) and lines[at + 3] == "", lines[at:at + 4]


def test_a_round_result_reads_the_same_in_the_log_on_the_turn_page_and_in_every_email(
    host: FlaskClient, runtime_of: Runtime, arranged_game: Arranged
) -> None:
    state = arrange(4, board=TO_THE_GOALS, hands={0: ["straight_ew"]}, gold=(8, 0), turn=0,
                    roles=["digger", "digger", "saboteur", "digger"])
    game_id = arranged_game(state)
    watcher = host.application.test_client()
    with_csrf(watcher)
    post(watcher, f"{spectator_path(host, game_id)}/emails", email="fan@example.org")
    post(watcher, confirmation_path(runtime_of, "fan@example.org"))
    said = "Ann reached the gold, so the gold-diggers win."

    runtime_of.games.submit_move(game_id, 0, {"type": "play", "card": card_in_hand(state, 0, "straight_ew"), "x": 7,
                                              "y": 0, "rotated": False}, 0, "win")
    while (current := runtime_of.games.engine_state(game_id)[0]).phase == engine.GOLD_PICK:
        seat, seq = engine.to_act(current), runtime_of.games.current_state(game_id).seq
        runtime_of.games.submit_move(game_id, seat, {"type": "pick_gold", "value": max(current.offer)}, seq, f"g{seq}")

    digest = " ".join((mailbox(runtime_of, "round_digest", to="bo@example.org")[0].body_text or "").split())
    spectator = " ".join((mailbox(runtime_of, "spectator_round_end")[0].body_text or "").split())
    page = open_table(host.application.test_client(), runtime_of, game_id, 1)
    assert f"Round 1: {said}" in digest
    assert said in spectator
    assert f'<span class="round-over-summary">{said}</span>' in page
    assert f"Round 1 is over: {said}" in page  # its line in the log


def email_lines_too_long(runtime: Runtime) -> list[str]:
    return [f"{row.kind}: {line}" for row in mailbox(runtime) for line in (row.body_text or "").split("\n")
            if len(line) > LONGEST_LINE and not URL_LINE.fullmatch(line)]


def test_no_line_of_a_text_part_is_longer_than_78_characters_unless_it_holds_only_a_link(
    host: FlaskClient, runtime_of: Runtime, new_game: NewGame, arranged_game: Arranged
) -> None:
    """Emails of a game from its start through a round's end and a handover to a rematch, and of its host."""
    game_id = arranged_game(arrange(3, board=TO_THE_GOALS, hands={0: ["straight_ew"]}, gold=(8, 0), turn=0,
                                    roles=["digger", "saboteur", "digger"]))
    state = runtime_of.games.engine_state(game_id)[0]
    runtime_of.games.submit_move(game_id, 0, {"type": "play", "card": card_in_hand(state, 0, "straight_ew"), "x": 7,
                                              "y": 0, "rotated": False}, 0, "win")
    while (current := runtime_of.games.engine_state(game_id)[0]).phase == engine.GOLD_PICK:
        seat, seq = engine.to_act(current), runtime_of.games.current_state(game_id).seq
        runtime_of.games.submit_move(game_id, seat, {"type": "pick_gold", "value": max(current.offer)}, seq, f"g{seq}")
    post(host, f"/host/games/{game_id}/seats/1/replace", confirm="yes", name="Eve", email="eve@example.org")
    other = new_game()
    post(host, f"/host/games/{other}/end", confirm="yes")
    post(host, f"/host/games/{other}/rematch", confirm="yes", order="rotated")

    kinds = {row.kind for row in mailbox(runtime_of) if row.body_text}

    assert {"game_started", "your_turn", "round_digest", "handover", "game_closed"} <= kinds
    assert email_lines_too_long(runtime_of) == []


def test_wrapping_keeps_indents_lines_up_items_and_never_breaks_a_link() -> None:
    link = "https://pbem.test/play/" + "x" * 90
    text = "\n".join([
        "A paragraph " + "of many words " * 8 + "ends here.",
        "  - An item " + "that goes on " * 8 + "and on.",
        "  12. A numbered item " + "that goes on " * 6 + "too.",
        "Open it: " + link,
        "Short line.",
        "",
    ])

    lines = wrapped(text, 40).split("\n")

    assert all(len(line) <= 40 or line == link for line in lines)
    assert link in lines and lines[-2:] == ["Short line.", ""]
    assert lines[0].startswith("A paragraph") and not lines[1].startswith(" ")
    item = [line for line in lines if line.startswith("  -") or line.startswith("    ")]
    assert item[0].startswith("  - An item") and all(line.startswith("    ") for line in item[1:])
    numbered = lines[[i for i, line in enumerate(lines) if line.startswith("  12.")][0] + 1]
    assert numbered.startswith("      ") and not numbered.startswith("       ")
    assert " ".join(" ".join(lines).split()) == " ".join(text.split())  # only line breaks were added


def test_the_readme_says_how_often_the_turn_page_looks_for_news() -> None:
    table = (Path(TEMPLATES_DIR) / "play" / "table.html").read_text()
    found = re.search(r'data-poll-seconds="\{\{ (\d+) if .+? else (\d+) \}\}"', table)
    assert found is not None
    computer, person = (int(seconds) for seconds in found.groups())
    readme = " ".join((ROOT / "README.md").read_text().split())

    def every(seconds: int) -> str:
        return "every second" if seconds == 1 else f"every {seconds} seconds"

    assert f"it looks {every(computer)} while a computer is to play ({every(person)} otherwise)" in readme
