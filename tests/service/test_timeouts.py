"""At the deadline the game's policy applies: a card discarded face down (the marked one, else a random one),
the host told, or a computer player's move; a gold pick takes the highest value. Everyone is told; a seat
that keeps timing out is flagged absent and the host gets one-click links."""

from __future__ import annotations

import copy
import random
import re
from datetime import timedelta

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select

import engine
from pbem.chance import SeededChance
from pbem.clock import SettableClock
from pbem.models import ChatMessage, Game, HostAction, Snapshot
from pbem.runtime import Runtime
from pbem.service.turns import bots
from tests.support.games import PEOPLE, Arranged, NewGame, play_moves
from tests.support.mail import mailbox
from tests.support.tables import TO_THE_GOALS, arrange, card_in_hand
from tests.support.web import app_runtime, form_fields

DEADLINE = timedelta(hours=72)


def to_act(runtime: Runtime, game_id: str) -> tuple[engine.Game, int, int]:
    state, seq = runtime.games.engine_state(game_id)
    seat = engine.to_act(state)
    assert seat is not None
    return state, seat, seq


def last_snapshot(runtime: Runtime, game_id: str) -> Snapshot:
    with runtime.db.read() as session:
        return session.scalars(
            select(Snapshot).join(Game).where(Game.public_id == game_id).order_by(Snapshot.seq.desc()).limit(1)
        ).one()


def chat_lines(runtime: Runtime, kind: str | None = None) -> list[str]:
    with runtime.db.read() as session:
        query = select(ChatMessage.text).where(ChatMessage.sender_kind == "system").order_by(ChatMessage.id)
        if kind is not None:
            query = query.where(ChatMessage.system_kind == kind)
        return list(session.scalars(query))


def test_at_the_deadline_the_seat_discards_the_card_it_marked_face_down(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    game_id = new_game()
    state, seat, _ = to_act(runtime, game_id)
    marked = state.hands[seat][3]
    runtime.presence.mark_timeout_card(game_id, seat, marked)

    clock.advance(DEADLINE - timedelta(minutes=1))
    assert runtime.sweep.run().timeouts == 0
    clock.advance(timedelta(minutes=1))
    assert runtime.sweep.run().timeouts == 1

    snapshot = last_snapshot(runtime, game_id)
    assert (snapshot.seq, snapshot.actor_seat, snapshot.move) == (1, seat, {"type": "pass", "cards": [marked]})
    assert snapshot.events[0] == {"type": "timed_out", "seat": seat, "how": "auto-pass", "audience": "public"}
    after, _ = runtime.games.engine_state(game_id)
    assert marked not in after.hands[seat] and marked in after.discard


def test_without_a_marked_card_a_random_card_is_discarded_and_nothing_reveals_the_seats_side(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    game_id = new_game()
    state, seat, _ = to_act(runtime, game_id)

    clock.advance(DEADLINE)
    runtime.sweep.run()

    move = last_snapshot(runtime, game_id).move
    assert move is not None and move["type"] == "pass" and len(move["cards"]) == 1
    assert move["cards"][0] in state.hands[seat]
    others = [other for other in range(3) if other != seat]
    for other in others:
        lines = runtime.games.history(game_id, other)[0].lines
        name = runtime.games.current_state(game_id).players[seat]
        assert lines[0] == f"{name} ran out of time: the game discarded a card face down for them."
        assert not any("built" in line or "broke" in line for line in lines)


def test_the_seat_that_ran_out_of_time_reads_it_as_you(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    game_id = new_game()
    _, seat, _ = to_act(runtime, game_id)

    clock.advance(DEADLINE)
    runtime.sweep.run()

    lines = runtime.games.history(game_id, seat)[0].lines
    assert lines[0] == "You ran out of time: the game discarded a card face down for you."


def test_a_marked_card_no_longer_in_hand_is_ignored(runtime: Runtime, new_game: NewGame, clock: SettableClock) -> None:
    game_id = new_game()
    state, seat, seq = to_act(runtime, game_id)
    marked = state.hands[seat][0]
    runtime.presence.mark_timeout_card(game_id, seat, marked)
    runtime.games.submit_move(game_id, seat, {"type": "pass", "cards": [marked]}, seq, "m0")
    for _ in range(2):  # round the table back to the seat, each other seat passing
        _, other, seq = to_act(runtime, game_id)
        hand = runtime.games.engine_state(game_id)[0].hands[other]
        runtime.games.submit_move(game_id, other, {"type": "pass", "cards": [hand[0]]}, seq, f"m{seq}")
    state, again, _ = to_act(runtime, game_id)
    assert again == seat

    clock.advance(DEADLINE)
    runtime.sweep.run()

    move = last_snapshot(runtime, game_id).move
    assert move is not None and move["cards"][0] in state.hands[seat] and move["cards"] != [marked]


def test_marking_a_card_not_in_hand_is_refused(runtime: Runtime, new_game: NewGame) -> None:
    game_id = new_game()
    state, seat, _ = to_act(runtime, game_id)
    other = (seat + 1) % 3

    with pytest.raises(Exception, match="not in your hand"):
        runtime.presence.mark_timeout_card(game_id, seat, state.hands[other][0])


def test_everyone_is_told_in_the_next_emails_and_the_chat_that_the_seat_timed_out(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    game_id = new_game()
    _, seat, _ = to_act(runtime, game_id)
    name = runtime.games.current_state(game_id).players[seat]

    clock.advance(DEADLINE)
    runtime.sweep.run()

    turn_mail = mailbox(runtime, "your_turn")[-1]
    assert f"{name} ran out of time: the game discarded a card face down for them." in turn_mail.body_text
    assert chat_lines(runtime, "timeout") == [
        f"{name} ran out of time after 3 days: a card was discarded face down for them."
    ]


def test_a_gold_pick_that_times_out_takes_the_highest_value(
    runtime: Runtime, arranged_game: Arranged, clock: SettableClock
) -> None:
    state = arrange(4, board=TO_THE_GOALS, hands={0: ["straight_ew"]}, gold=(8, 0), turn=0,
                    roles=["digger", "digger", "saboteur", "digger"])
    pile = list(state.gold_pile)
    for value in (1, 2, 3, 2):
        pile.remove(value)
    state.gold_pile = pile + [2, 3, 2, 1]  # drawn from the end: 1, 2, 3, 2
    game_id = arranged_game(state)
    runtime.games.submit_move(
        game_id, 0, {"type": "play", "card": card_in_hand(state, 0, "straight_ew"), "x": 7, "y": 0, "rotated": False},
        0, "win",
    )
    picking, seat, _ = to_act(runtime, game_id)
    assert picking.phase == "gold" and 3 in picking.offer

    clock.advance(DEADLINE)
    runtime.sweep.run()

    snapshot = last_snapshot(runtime, game_id)
    assert snapshot.move == {"type": "pick_gold", "value": 3}
    assert snapshot.events[0]["how"] == "gold"


def test_notify_host_waits_for_the_host_and_tells_them_once(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    game_id = new_game(policies={"timeout_policy": "notify-host"})
    _, seat, _ = to_act(runtime, game_id)

    clock.advance(DEADLINE)
    first = runtime.sweep.run()
    clock.advance(timedelta(days=3))
    later = runtime.sweep.run()

    assert (first.host_notices, later.host_notices, later.timeouts) == (1, 0, 0)
    notice = mailbox(runtime, "host_player_stalling")
    assert [row.to_address for row in notice] == ["host@example.org"]
    assert runtime.games.current_state(game_id).seq == 0
    status = runtime.turn_controls.status(game_id)
    assert status.waiting_for_host and status.to_act == seat


def test_the_bot_policy_lets_the_computer_player_decide(
    runtime: Runtime, new_game: NewGame, clock: SettableClock, chance: SeededChance
) -> None:
    game_id = new_game(policies={"timeout_policy": "bot"})
    play_moves(runtime, game_id, 3, random.Random(5))
    state, seat, seq = to_act(runtime, game_id)
    with runtime.db.read() as session:
        game_pk = session.scalars(select(Game.id).where(Game.public_id == game_id)).one()
        seen = bots.seat_events(session, game_pk, seat, seq)
    expected = bots.bot_move(state, seat, copy.deepcopy(chance).seed(), seen)  # the seed the sweep will draw

    clock.advance(DEADLINE)
    runtime.sweep.run()

    snapshot = last_snapshot(runtime, game_id)
    assert snapshot.move == expected
    assert snapshot.events[0]["how"] == "bot"


def run_to_timeouts(runtime: Runtime, game_id: str, clock: SettableClock, seat: int, count: int) -> None:
    """Let `seat` time out `count` turns in a row while the others play."""
    timed_out = 0
    while timed_out < count:
        state, who, seq = to_act(runtime, game_id)
        if who == seat:
            clock.advance(DEADLINE)
            runtime.sweep.run()
            timed_out += 1
        else:
            runtime.games.submit_move(game_id, who, {"type": "pass", "cards": [state.hands[who][0]]}, seq, f"m{seq}")


def test_two_timeouts_in_a_row_flag_the_seat_absent_and_email_the_host_one_click_links(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    game_id = new_game()
    _, seat, _ = to_act(runtime, game_id)

    run_to_timeouts(runtime, game_id, clock, seat, 1)
    assert not runtime.turn_controls.status(game_id).seats[seat].absent
    run_to_timeouts(runtime, game_id, clock, seat, 1)

    status = runtime.turn_controls.status(game_id).seats[seat]
    assert (status.timeouts_in_row, status.absent, status.auto_pass) == (2, True, False)
    [notice] = mailbox(runtime, "host_seat_absent")
    assert notice.to_address == "host@example.org"
    assert f"https://pbem.test/host/games/{game_id}" in notice.body_text
    assert re.search(r"https://pbem\.test/host-links/auto-pass/\S+", notice.body_text)


def test_playing_a_turn_again_ends_the_run_of_timeouts(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    game_id = new_game()
    _, seat, _ = to_act(runtime, game_id)
    run_to_timeouts(runtime, game_id, clock, seat, 2)
    while (current := to_act(runtime, game_id))[1] != seat:
        state, who, seq = current
        runtime.games.submit_move(game_id, who, {"type": "pass", "cards": [state.hands[who][0]]}, seq, f"m{seq}")
    state, _, seq = to_act(runtime, game_id)

    runtime.games.submit_move(game_id, seat, {"type": "pass", "cards": [state.hands[seat][0]]}, seq, "back")

    status = runtime.turn_controls.status(game_id).seats[seat]
    assert (status.timeouts_in_row, status.absent) == (0, False)


def absent_link(runtime: Runtime) -> str:
    [notice] = mailbox(runtime, "host_seat_absent")
    match = re.search(r"https://pbem\.test(/host-links/auto-pass/\S+)", notice.body_text)
    assert match
    return match.group(1)


def test_the_hosts_one_click_link_asks_first_and_then_lets_the_game_auto_pass_for_the_absent_seat(
    client: FlaskClient, clock: SettableClock
) -> None:
    runtime = app_runtime(client.application)
    game_id = runtime.games.create_game(
        title="Test mine", host_email="host@example.org",
        players=list(PEOPLE),
    )
    runtime.games.start_game(game_id)
    _, seat, _ = to_act(runtime, game_id)
    run_to_timeouts(runtime, game_id, clock, seat, 2)
    link = absent_link(runtime)

    confirm = client.get(link)
    assert confirm.status_code == 200
    assert not runtime.turn_controls.status(game_id).seats[seat].auto_pass  # GET changes nothing
    refused = client.post(link, data={})
    assert refused.status_code == 400
    done = client.post(link, data={"csrf_token": form_fields(confirm.get_data(as_text=True))["csrf_token"]})

    assert done.status_code == 200
    assert runtime.turn_controls.status(game_id).seats[seat].auto_pass
    with runtime.db.read() as session:
        assert session.scalars(select(HostAction.action).order_by(HostAction.id.desc())).first() == "auto_pass"
    # From now on the seat's turns pass at the next sweep, without waiting for the deadline.
    while (current := to_act(runtime, game_id))[1] != seat:
        state, who, seq = current
        runtime.games.submit_move(game_id, who, {"type": "pass", "cards": [state.hands[who][0]]}, seq, f"m{seq}")
    clock.advance(timedelta(minutes=1))
    assert runtime.sweep.run().timeouts == 1


def test_a_tampered_auto_pass_link_is_refused(client: FlaskClient) -> None:
    assert client.get("/host-links/auto-pass/not-a-token").status_code == 403


def passed_mail(runtime: Runtime, game_id: str, seat: int) -> list[str]:
    address = f"{runtime.games.current_state(game_id).players[seat].lower()}@example.org"
    return [" ".join(row.body_text.split()) for row in mailbox(runtime, "deadline_passed", to=address)]


def test_the_seat_that_timed_out_is_emailed_what_the_game_did_for_it(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    game_id = new_game()
    state, seat, _ = to_act(runtime, game_id)
    runtime.presence.mark_timeout_card(game_id, seat, state.hands[seat][0])

    clock.advance(DEADLINE)
    runtime.sweep.run()

    [body] = passed_mail(runtime, game_id, seat)
    assert "waited 3 days for you" in body and "your turn's deadline has passed" in body
    own_lines = runtime.games.history(game_id, seat)[-1].lines
    assert all(f"- {line}" in body for line in own_lines[1:]) and len(own_lines) > 1
    others = [s for s in range(3) if s != seat]
    assert all(passed_mail(runtime, game_id, other) == [] for other in others)


def test_under_notify_host_the_seat_is_told_the_host_decides(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    game_id = new_game(policies={"timeout_policy": "notify-host"})
    _, seat, _ = to_act(runtime, game_id)

    clock.advance(DEADLINE)
    runtime.sweep.run()
    runtime.sweep.run()

    [body] = passed_mail(runtime, game_id, seat)
    assert "The host has been told and decides what happens next" in body


def test_a_turn_the_host_skips_is_told_as_the_hosts_doing(runtime: Runtime, new_game: NewGame) -> None:
    game_id = new_game()
    _, seat, _ = to_act(runtime, game_id)

    runtime.turn_controls.skip(game_id, actor_email="host@example.org")

    [body] = passed_mail(runtime, game_id, seat)
    assert "the host moved the game on" in body and "deadline has passed" not in body
