"""History is never rewritten by a replacement: every log, replay, recap, email and archive line names the person
who held the seat when the move was made, and the handover is a line of its own."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from pbem.models import Game
from pbem.runtime import Runtime
from pbem.service.history.archive import game_archive
from pbem.service.host.host_access import HostSession
from tests.support.games import Arranged, play
from tests.support.mail import mailbox
from tests.support.tables import TO_THE_GOALS, arrange, card_in_hand

HOST = HostSession(email="host@example.org", is_admin=False)
HANDOVER = "Dan takes over Bo's seat."



def bo_breaks_a_pick_and_is_replaced(runtime: Runtime, arranged_game: Arranged) -> tuple[str, Any]:
    """Ann looks at a goal, Bo (the saboteur) breaks Cy's pick, Cy repairs it; the host gives Bo's seat to Dan;
    Di passes (Ann's turn again)."""
    state = arrange(4, board=TO_THE_GOALS, gold=(8, 0), turn=0, roles=["digger", "saboteur", "digger", "digger"],
                    hands={0: ["map", "straight_ew"], 1: ["break_pick"], 2: ["repair_pick"], 3: ["dead_n"]})
    game_id = arranged_game(state)
    play(runtime, game_id, 0, {"type": "play", "card": card_in_hand(state, 0, "map"), "x": 8, "y": 2})
    play(runtime, game_id, 1, {"type": "play", "card": card_in_hand(state, 1, "break_pick"), "target": 2})
    play(runtime, game_id, 2, {"type": "play", "card": card_in_hand(state, 2, "repair_pick"), "target": 2,
                               "tool": "pick"})
    runtime.moderation.replace_player(game_id, 1, "Dan", "dan@example.org", host=HOST)
    play(runtime, game_id, 3, {"type": "pass", "cards": [card_in_hand(state, 3, "dead_n")]})
    return game_id, state


def test_the_log_names_who_made_each_move_then_and_tells_the_handover(
    runtime: Runtime, arranged_game: Arranged,
) -> None:
    game_id, _ = bo_breaks_a_pick_and_is_replaced(runtime, arranged_game)

    for seat in (None, 0, 1, 2):
        history = runtime.games.history(game_id, seat)
        lines = [line for entry in history for line in entry.lines]
        assert [entry.actor_name for entry in history] == ["Ann", "Bo", "Cy", "Di"]
        assert not any(line.startswith("Dan") and line != HANDOVER for line in lines), lines
        assert lines.count(HANDOVER) == 1
        assert lines.index(HANDOVER) == len(lines) - 2  # after Cy's repair, before Di's pass


def test_the_replay_names_who_made_each_move_then(runtime: Runtime, arranged_game: Arranged) -> None:
    game_id, _ = bo_breaks_a_pick_and_is_replaced(runtime, arranged_game)

    step = runtime.chronicle.replay_step(game_id, None, 2)

    assert step.entry.actor == "Bo"
    assert step.players[1] == "Bo"
    assert runtime.chronicle.replay_step(game_id, None, 3).entry.lines[-1] == HANDOVER
    assert runtime.chronicle.replay_step(game_id, None, 4).players[1] == "Dan"


def test_the_recap_names_who_made_each_move_then(runtime: Runtime, arranged_game: Arranged) -> None:
    game_id, state = bo_breaks_a_pick_and_is_replaced(runtime, arranged_game)
    play(runtime, game_id, 0, {"type": "play", "card": card_in_hand(state, 0, "straight_ew"), "x": 7, "y": 0,
                               "rotated": False})  # the gold: the round is over

    story = runtime.chronicle.round_story(game_id, 1)

    assert story is not None
    lines = [line for entry in story.recap.entries for line in entry.lines]
    assert "Bo (saboteur) broke Cy (gold-digger)'s pick." in lines
    assert HANDOVER in lines
    assert not any(line.startswith("Dan (") for line in lines)


def test_a_turn_email_after_the_handover_names_the_old_holder_for_the_old_moves(
    runtime: Runtime, arranged_game: Arranged,
) -> None:
    bo_breaks_a_pick_and_is_replaced(runtime, arranged_game)

    email = mailbox(runtime, "your_turn", to="ann@example.org")[-1]

    assert "Bo broke Cy's pick" in email.body_text
    assert HANDOVER in email.body_text
    assert "Dan broke" not in email.body_text


def test_the_archive_names_each_move_s_maker_and_the_seat_s_earlier_holders(
    runtime: Runtime, arranged_game: Arranged,
) -> None:
    game_id, _ = bo_breaks_a_pick_and_is_replaced(runtime, arranged_game)

    with runtime.db.read() as session:
        game = session.scalars(select(Game).where(Game.public_id == game_id)).one()
        archive = game_archive(session, game)

    assert [snapshot["actor_name"] for snapshot in archive["snapshots"]] == [None, "Ann", "Bo", "Cy", "Di"]
    assert archive["seats"][1]["name"] == "Dan"
    assert archive["seats"][1]["former_holders"] == [{"name": "Bo", "upto_seq": 3}]
