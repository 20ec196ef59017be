"""What the game's emails say, and what they never say: each recipient reads only what that seat may know.

Twin games differ only in what one recipient cannot see (other seats' gold values, roles before the
round ends, where the gold lies); that recipient's emails must be identical in both, letter for letter.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import select, update

import engine
from pbem.clock import SettableClock
from pbem.models import Game, OutboxMessage, Seat, Snapshot
from pbem.runtime import Runtime
from pbem.service.events import describe, is_visible
from pbem.service.letters.daily import queue_due_daily_digests
from pbem.service.letters.host_notices import enqueue_stalling_notice
from pbem.service.turns.values import PlayerSpec
from pbem.words.events import describe_event
from tests.support.games import PEOPLE, Arranged, NewGame, play_moves
from tests.support.mail import bodies, compose_waiting_mail, digest_seats, flat, mailbox
from tests.support.tables import TO_THE_GOALS, arrange, card_in_hand


def play(runtime: Runtime, game_id: str, seat: int, move: dict[str, Any]) -> None:
    """One move, then the mail it queued is written, as a deliverer running between moves would."""
    seq = runtime.games.current_state(game_id).seq
    assert seq is not None
    runtime.games.submit_move(game_id, seat, move, seq, f"m-{seq}")
    compose_waiting_mail(runtime)


def pass_first_card(runtime: Runtime, game_id: str) -> None:
    state, _ = runtime.games.engine_state(game_id)
    seat = engine.to_act(state)
    assert seat is not None
    play(runtime, game_id, seat, {"type": "pass", "cards": [state.hands[seat][0]]})


def pick(runtime: Runtime, game_id: str, seat: int, value: int) -> None:
    play(runtime, game_id, seat, {"type": "pick_gold", "value": value})


def gold_on_top(state: engine.Game, values: list[int]) -> None:
    """Reorder the gold pile so that `values` are drawn first (the top of the pile is its end)."""
    pile = list(state.gold_pile)
    for value in values:
        pile.remove(value)
    state.gold_pile = pile + list(reversed(values))


def digests_of(runtime: Runtime, game_id: str) -> int:
    return sum(len(bodies(runtime, game_id, f"{name}@example.org", "round_digest"))
               for name in ("ann", "bo", "cy", "di"))


def digest_text(runtime: Runtime, game_id: str, address: str) -> str:
    [(_, text, _)] = bodies(runtime, game_id, address, "round_digest")
    return flat(text)


# -- round-end digests -------------------------------------------------------------------------------


def diggers_win(runtime: Runtime, arranged_game: Arranged, ann_picks: int, di_picks: int) -> str:
    """Ann reaches the gold; four gold cards (3, 2, 2, 1) go round the diggers: Ann, Di, Bo, Ann."""
    state = arrange(4, board=TO_THE_GOALS, hands={0: ["straight_ew"]}, gold=(8, 0), turn=0,
                    roles=["digger", "digger", "saboteur", "digger"])
    gold_on_top(state, [3, 2, 2, 1])
    game_id = arranged_game(state)
    play(runtime, game_id, 0, {"type": "play", "card": card_in_hand(state, 0, "straight_ew"), "x": 7, "y": 0,
                               "rotated": False})
    for seat, value in [(0, ann_picks), (3, di_picks), (1, 2)]:
        pick(runtime, game_id, seat, value)
        assert digests_of(runtime, game_id) == 0  # not while the gold is being shared out
    pick(runtime, game_id, 0, 1)  # the last card: the round's payouts are complete, round 2 is dealt
    assert digests_of(runtime, game_id) == 4
    return game_id


def test_a_diggers_win_digest_reveals_roles_and_card_counts_but_only_the_recipients_own_values(
    runtime: Runtime, arranged_game: Arranged
) -> None:
    game_id = diggers_win(runtime, arranged_game, ann_picks=3, di_picks=2)

    bo = digest_text(runtime, game_id, "bo@example.org")
    assert "Round 1: Ann reached the gold, so the gold-diggers win." in bo
    for line in ("Ann: gold-digger, 2 gold cards", "Bo (you): gold-digger, 1 gold card",
                 "Cy: saboteur, 0 gold cards", "Di: gold-digger, 1 gold card", "Not dealt: gold-digger."):
        assert line in bo
    assert "this round you received 2." in bo and "So far you hold 1 gold card (2), worth 2 nuggets." in bo
    assert "Round 2 begins" in bo
    ann = digest_text(runtime, game_id, "ann@example.org")
    assert "this round you received 3 + 1." in ann and "worth 4 nuggets" in ann
    assert "you received no gold this round" in digest_text(runtime, game_id, "cy@example.org")


def test_a_diggers_win_digest_does_not_change_with_what_others_picked(
    runtime: Runtime, arranged_game: Arranged
) -> None:
    first = diggers_win(runtime, arranged_game, ann_picks=3, di_picks=2)
    twin = diggers_win(runtime, arranged_game, ann_picks=2, di_picks=3)  # Bo is offered 2 and 1 either way

    for unaffected in ("bo@example.org", "cy@example.org"):
        assert bodies(runtime, first, unaffected, "round_digest") == bodies(runtime, twin, unaffected, "round_digest")
    for picker in ("ann@example.org", "di@example.org"):
        assert bodies(runtime, first, picker, "round_digest") != bodies(runtime, twin, picker, "round_digest")


def last_cards(runtime: Runtime, arranged_game: Arranged, roles: list[str], **layout: Any) -> str:
    """Three players with one card each and no draw pile all pass, which ends the round."""
    state = arrange(3, draw=0, roles=roles, gold=layout.pop("gold", None))
    for seat in range(3):
        state.discard += state.hands[seat][1:]
        state.hands[seat] = state.hands[seat][:1]
    if "top" in layout:
        gold_on_top(state, layout.pop("top"))
    game_id = arranged_game(state)
    for _ in range(3):
        pass_first_card(runtime, game_id)
    return game_id


def saboteurs_win(runtime: Runtime, arranged_game: Arranged, top: list[int]) -> str:
    """Bo, the one saboteur, is paid 4 nuggets from the `top` of the gold pile."""
    return last_cards(runtime, arranged_game, ["digger", "saboteur", "digger"], top=top)


def test_the_digest_says_the_round_ended_because_nobody_could_play_and_who_starts_next(
    runtime: Runtime, arranged_game: Arranged
) -> None:
    """Rulebook: "The round also ends if the draw deck runs out of cards and no player has any playable cards
    left in hand." Ann's pass empties nothing more; with every tool broken and only path cards left, it ends."""
    state = arrange(3, draw=0, roles=["digger", "saboteur", "digger"], broken={0: ["pick"], 1: ["pick"], 2: ["pick"]},
                    hands={0: ["straight_ew", "straight_ns"], 1: ["straight_ew"], 2: ["curve_ne"]})
    game_id = arranged_game(state)

    pass_first_card(runtime, game_id)

    ann = digest_text(runtime, game_id, "ann@example.org")
    assert ("Round 1: The draw pile ran out and nobody could play a card before anyone reached the gold, "
            "so the saboteurs win.") in ann
    assert "Round 2 begins; Bo plays first, sitting on your left: you played the last card of the round before." in ann


def test_the_digests_round_started_line_calls_its_reader_you(runtime: Runtime, arranged_game: Arranged) -> None:
    state = arrange(3, draw=0, roles=["digger", "saboteur", "digger"], broken={0: ["pick"], 1: ["pick"], 2: ["pick"]},
                    hands={0: ["straight_ew", "straight_ns"], 1: ["straight_ew"], 2: ["curve_ne"]})
    game_id = arranged_game(state)

    pass_first_card(runtime, game_id)

    bo = digest_text(runtime, game_id, "bo@example.org")
    cy = digest_text(runtime, game_id, "cy@example.org")
    assert "Round 2 begins; you play first, sitting left of Ann, who played the last card of the round before." in bo
    assert "Round 2 begins; Bo plays first, sitting left of Ann, who played the last card of the round before." in cy


def test_a_saboteurs_win_digest_shows_the_payout_and_keeps_the_saboteurs_card_values_to_the_saboteur(
    runtime: Runtime, arranged_game: Arranged
) -> None:
    first = saboteurs_win(runtime, arranged_game, [3, 1])
    twin = saboteurs_win(runtime, arranged_game, [2, 2])

    ann = digest_text(runtime, first, "ann@example.org")
    assert "Round 1: Every hand was played out before anyone reached the gold, so the saboteurs win." in ann
    assert "Bo: saboteur, 2 gold cards" in ann and "Bo was paid 4 nuggets in 2 cards." in ann
    assert "you received no gold this round" in ann
    assert "this round you received 3 + 1." in digest_text(runtime, first, "bo@example.org")
    assert "this round you received 2 + 2." in digest_text(runtime, twin, "bo@example.org")
    for digger in ("ann@example.org", "cy@example.org"):
        assert bodies(runtime, first, digger, "round_digest") == bodies(runtime, twin, digger, "round_digest")


def no_saboteur_round(runtime: Runtime, arranged_game: Arranged, gold: tuple[int, int]) -> str:
    return last_cards(runtime, arranged_game, ["digger", "digger", "digger"], gold=gold)


def test_a_round_without_saboteur_says_nobody_wins_and_never_where_the_gold_was(
    runtime: Runtime, arranged_game: Arranged
) -> None:
    first = no_saboteur_round(runtime, arranged_game, gold=(8, 2))
    twin = no_saboteur_round(runtime, arranged_game, gold=(8, -2))

    ann = digest_text(runtime, first, "ann@example.org")
    assert "with no saboteur in play nobody wins" in ann and "Not dealt: saboteur." in ann
    assert "Ann (you): gold-digger, 0 gold cards" in ann
    for person in ("ann@example.org", "bo@example.org", "cy@example.org"):
        assert bodies(runtime, first, person) == bodies(runtime, twin, person)


# -- turn emails -------------------------------------------------------------------------------------


def map_round(runtime: Runtime, arranged_game: Arranged, roles: list[str], gold: tuple[int, int]) -> str:
    """Ann passes, Bo looks at the top goal with a map, then everyone passes twice round."""
    state = arrange(4, hands={1: ["map", "straight_ew"]}, roles=roles, gold=gold)
    game_id = arranged_game(state)
    pass_first_card(runtime, game_id)
    play(runtime, game_id, 1, {"type": "play", "card": card_in_hand(state, 1, "map"), "x": 8, "y": 2})
    for _ in range(6):
        pass_first_card(runtime, game_id)
    return game_id


def test_turn_emails_do_not_change_with_other_seats_roles_or_what_their_maps_showed(
    runtime: Runtime, arranged_game: Arranged
) -> None:
    first = map_round(runtime, arranged_game, ["digger", "digger", "saboteur", "digger"], gold=(8, 2))
    twin = map_round(runtime, arranged_game, ["digger", "saboteur", "digger", "digger"], gold=(8, -2))

    ann = bodies(runtime, first, "ann@example.org")
    assert len(ann) == 2 and "Bo looked at the top goal with a Map" in ann[0][1]
    assert ann == bodies(runtime, twin, "ann@example.org")
    # ... although the twins differ in what Bo saw, and in who the saboteur is
    saw = [engine.view(runtime.games.engine_state(game)[0], 1)["you"]["peeks"] for game in (first, twin)]
    assert saw == [[{"x": 8, "y": 2, "gold": True}], [{"x": 8, "y": 2, "gold": False}]]


def test_a_turn_email_lists_public_events_and_the_recipients_own_private_ones_since_their_last_turn(
    runtime: Runtime, new_game: NewGame
) -> None:
    game_id = new_game()
    play_moves(runtime, game_id, 4, random.Random(7))  # Ann, Ben, Cat, Ann: Ben is next

    [_, second] = mailbox(runtime, "your_turn", to="ben@example.org")
    history = runtime.games.history(game_id, seat=1)
    since_last_turn = [line for entry in history if entry.seq > 2 for line in entry.lines]
    assert since_last_turn and all(line in second.body_text for line in since_last_turn)
    own_move = [line for entry in history if entry.seq == 2 for line in entry.lines]
    assert not any(line in second.body_text for line in own_move if line.startswith("You "))


def test_a_turn_email_names_the_deadline_in_the_recipients_time_zone(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    game_id = new_game()
    with runtime.db.write() as session:
        session.execute(update(Seat).where(Seat.display_name == "Ben").values(timezone="Europe/Berlin"))
    play_moves(runtime, game_id, 1, random.Random(1))

    [turn] = mailbox(runtime, "your_turn")  # the turn began on Mon 5 Jan at 09:00 UTC; 72 hours to play
    assert "Your turn began Mon 5 Jan 2026, 10:00 CET." in turn.body_text
    assert "Please play by Thu 8 Jan 2026, 10:00 CET (3 days to decide)." in flat(turn.body_text)
    assert "Please play by <strong>Thu 8 Jan 2026, 10:00 CET</strong> (3 days to decide)." in turn.body_html


def test_a_game_without_deadline_names_none(runtime: Runtime, new_game: NewGame) -> None:
    game_id = new_game(policies={"deadline_hours": None})
    play_moves(runtime, game_id, 1, random.Random(1))

    [turn] = mailbox(runtime, "your_turn")
    assert "play by" not in turn.body_text
    assert "hours for each turn" not in mailbox(runtime, "game_started")[0].body_text


def test_a_gold_pick_email_asks_for_a_choice_and_names_only_what_is_offered_to_the_recipient(
    runtime: Runtime, arranged_game: Arranged
) -> None:
    diggers_win(runtime, arranged_game, ann_picks=3, di_picks=2)

    di_pick = next(row for row in mailbox(runtime, "your_turn", to="di@example.org"))
    assert "It is your turn to choose a gold card" in di_pick.body_text and "On offer: 2, 2, 1." in di_pick.body_text
    assert "Choose your gold" in di_pick.body_html


def test_seats_that_chose_the_daily_digest_and_computer_seats_get_no_turn_email(
    runtime: Runtime, new_game: NewGame
) -> None:
    game_id = new_game([*PEOPLE, PlayerSpec("Bot 1", is_bot=True)])
    with runtime.db.write() as session:
        session.execute(update(Seat).where(Seat.display_name == "Ben").values(notify_mode="digest"))

    play_moves(runtime, game_id, 8, random.Random(4))

    assert {row.to_address for row in mailbox(runtime, "your_turn")} == {"ann@example.org", "cat@example.org"}


def test_the_game_started_email_seats_the_recipient_and_explains_the_game(runtime: Runtime, new_game: NewGame) -> None:
    new_game([*PEOPLE, PlayerSpec("Bot 1", is_bot=True)])

    started = mailbox(runtime, "game_started")
    assert [row.to_address for row in started] == [person.email for person in PEOPLE]
    cat = started[2].body_text
    assert 'You sit in seat 3 of 4.' in cat
    assert "1. Ann\n  2. Ben\n  3. Cat (you)\n  4. Bot 1 (computer)" in cat
    assert "secretly either a gold-digger or a saboteur" in flat(cat) and "After three rounds" in flat(cat)
    assert "Ann plays first." in cat and "you have 72 hours for each turn" in flat(cat)
    assert "You play first." in started[0].body_text


# -- game over ---------------------------------------------------------------------------------------


def play_to_the_end(runtime: Runtime, game_id: str, rng: random.Random) -> None:
    """Random moves to the end, each turn email written before the next move (a deliverer that keeps up)."""
    while runtime.games.current_state(game_id).status == "active":
        play_moves(runtime, game_id, 1, rng)
        compose_waiting_mail(runtime)


def test_the_game_over_email_reveals_every_role_of_every_round_all_gold_and_the_winners(
    runtime: Runtime, new_game: NewGame
) -> None:
    game_id = new_game()
    play_to_the_end(runtime, game_id, random.Random(8))

    state, _ = runtime.games.engine_state(game_id)
    results = engine.view(state, None)["results"]
    scores = engine.scores(state)
    winners = [PEOPLE[seat].name for seat, score in enumerate(scores) if score == max(scores)]
    over = mailbox(runtime, "game_over")
    assert [row.to_address for row in over] == [person.email for person in PEOPLE]
    assert len(mailbox(runtime, "round_digest")) == 2 * len(PEOPLE)  # rounds 1 and 2; round 3 is in game_over
    for reader, mail in enumerate(over):
        text = mail.body_text
        others = [name for name in winners if name != PEOPLE[reader].name]
        if PEOPLE[reader].name in winners:
            assert ("You won" + (f", together with {' and '.join(others)}" if others else "") + "!") in text
        else:
            assert f"The winner{'s are' if len(winners) > 1 else ' is'} {' and '.join(winners)}." in text
        for seat, person in enumerate(PEOPLE):
            values = sorted(state.gold[seat], reverse=True)
            line = (f"  {person.name}{' (you)' if seat == reader else ''}"
                    f"{' (winner)' if person.name in winners else ''}"
                    f": {scores[seat]} nugget{'s' if scores[seat] != 1 else ''}"
                    + (f" ({', '.join(map(str, values))})" if values else ""))
            assert line + "\n" in text
        for result in results:
            assert f"Round {result['round']}: " in text
            for seat, role in enumerate(result["roles"]):
                label = "gold-digger" if role == "digger" else role
                assert f"  {PEOPLE[seat].name}{' (you)' if seat == reader else ''}: {label}, " in text


def test_no_email_contains_a_line_of_an_event_hidden_from_its_recipient(runtime: Runtime, new_game: NewGame) -> None:
    game_id = new_game([*PEOPLE, PlayerSpec("Dan", "dan@example.org")])
    play_to_the_end(runtime, game_id, random.Random(9))

    with runtime.db.read() as session:
        snapshots = list(session.scalars(select(Snapshot.events).order_by(Snapshot.seq)))
    names = runtime.games.current_state(game_id).players
    private_lines_reached = []
    for seat, address in enumerate(f"{name.lower()}@example.org" for name in names):
        seen = {describe_event(e, names) for batch in snapshots for e in batch if is_visible(e, seat)}
        hidden = {describe_event(e, names) for batch in snapshots for e in batch if not is_visible(e, seat)}
        secrets = hidden - seen
        assert secrets, "every seat has private events others do not see"
        mails = mailbox(runtime, to=address)
        assert len(mails) > 10
        own_secrets = set()  # lines as this reader is told them that say more than the public events do
        for batch in snapshots:
            told = describe([e for e in batch if is_visible(e, seat)], names, seat)
            public = describe([e for e in batch if e["audience"] == "public"], names, seat)
            own_secrets |= set(told) - set(public)
        private_lines_reached.append(any(line in mail.body_text for mail in mails for line in own_secrets))
        for mail in mails:
            assert mail.subject in ("Test mine - Saboteur", "Re: Test mine - Saboteur")
            for secret in secrets:
                assert secret not in mail.body_text, (mail.kind, secret)
                assert secret.replace("'", "&#39;") not in mail.body_html, (mail.kind, secret)
    # A turn email recounts the moves since the reader's own, so a seat whose move ended a round is not told its
    # next role and hand by email (its page shows them). At most two seats end a round; the others are told.
    assert sum(private_lines_reached) >= 2, "private lines reach their owners"


# -- daily digests -----------------------------------------------------------------------------------


def test_a_daily_digest_is_queued_once_a_day_after_eight_in_the_recipients_time_zone(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    new_game()
    digest_seats(runtime, Ben="UTC", Cat="America/New_York")  # 09:00 in London is 04:00 in New York

    assert queue_due_daily_digests(runtime.db, clock, runtime.games.mail) == 1
    assert queue_due_daily_digests(runtime.db, clock, runtime.games.mail) == 0
    clock.advance(timedelta(hours=4))  # 08:00 in New York
    assert queue_due_daily_digests(runtime.db, clock, runtime.games.mail) == 1
    clock.advance(timedelta(hours=20))  # the next morning in London
    assert queue_due_daily_digests(runtime.db, clock, runtime.games.mail) == 1

    digests = mailbox(runtime, "daily_digest")
    assert [row.to_address for row in digests] == ["ben@example.org", "cat@example.org", "ben@example.org"]
    assert "for Monday 5 January" in digests[0].body_text and "for Tuesday 6 January" in digests[2].body_text


def test_a_daily_digest_says_whose_turn_it_is_and_what_happened_since_the_last_one(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    game_id = new_game()
    digest_seats(runtime, Ben="UTC")
    queue_due_daily_digests(runtime.db, clock, runtime.games.mail)
    play_moves(runtime, game_id, 1, random.Random(6))  # Ann moves: Ben's turn, and no turn email for Ben
    clock.advance(timedelta(days=1))

    queue_due_daily_digests(runtime.db, clock, runtime.games.mail)

    first, second = (row.body_text for row in mailbox(runtime, "daily_digest"))
    assert "It is Ann's turn" in first and "It is not your turn." in first
    assert "Nothing has happened since your last digest." in first
    assert "It is your turn, since Mon 5 Jan 2026, 09:00 UTC. Please play by Thu 8 Jan 2026, 09:00 UTC." in flat(second)
    ann_move = runtime.games.history(game_id, seat=1)[-1].lines
    assert ann_move and all(line in second for line in ann_move)
    assert "Ben (you) (to play)" in second
    assert mailbox(runtime, "your_turn", to="ben@example.org") == []


def test_no_daily_digest_for_turn_email_seats_computer_seats_or_finished_games(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    finished = new_game()
    new_game()
    digest_seats(runtime, Ben="UTC")
    with runtime.db.write() as session:
        session.execute(update(Game).where(Game.public_id == finished).values(status="finished"))

    assert queue_due_daily_digests(runtime.db, clock, runtime.games.mail) == 1
    [digest] = mailbox(runtime, "daily_digest")
    assert digest.to_address == "ben@example.org" and "List-Unsubscribe" not in digest.headers


# -- host notices ------------------------------------------------------------------------------------


def test_the_stalling_notice_tells_the_host_who_keeps_the_table_waiting_once_per_decision(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    game_id = new_game()
    clock.advance(timedelta(days=2, hours=3))

    def notify(seat_index: int) -> OutboxMessage | None:
        with runtime.db.write() as session:
            game = session.scalars(select(Game).where(Game.public_id == game_id)).one()
            return enqueue_stalling_notice(session, runtime.outbox, game=game, seat=game.seats[seat_index],
                                           now=clock.now(), reminders_sent=2)

    first = notify(0)
    again = notify(0)
    with pytest.raises(ValueError, match="no decision pending"):
        notify(1)

    assert first is not None and again is None
    assert first.to_address == "host@example.org" and first.subject == "Host: Test mine - Saboteur"
    assert ("waiting for Ann for 2 days and 3 hours (their turn since Mon 5 Jan 2026, 09:00 UTC),"
            " despite 2 reminders") in flat(first.body_text)
    play_moves(runtime, game_id, 1, random.Random(1))
    assert notify(1) is not None  # a new decision, a new notice


def test_every_seat_email_links_the_rules_in_its_footer(runtime: Runtime, new_game: NewGame) -> None:
    game_id = new_game()
    play_moves(runtime, game_id, 1, random.Random(1))

    [turn] = mailbox(runtime, "your_turn")

    rules = f"{runtime.config.base_url}/rules"
    assert f"How to play, with every card: {rules}" in turn.body_text
    assert f'<a href="{rules}"' in turn.body_html
