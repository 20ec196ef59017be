"""Saboteur 2 emails: the round digest and the game-over email name the dwarf cards and explain every payout
line (team, door, Boss, Profiteer, Geologists' crystals, trapped players, thefts), checked on the rulebook's
worked example of sharing the treasure; the turn email of a steal decision; the welcome email's rules."""

from __future__ import annotations

import random
import re
from typing import Any

from sqlalchemy import select

import engine
from engine.variants import variant_of
from pbem.models import Snapshot
from pbem.runtime import Runtime
from pbem.service.events import is_visible
from pbem.service.letters.daily import queue_due_daily_digests
from pbem.words.events import describe_event
from tests.support.games import store_game
from tests.support.mail import bodies, compose_waiting_mail, digest_seats, mailbox
from tests.support.tables import arrange, rulebook_example
from tests.support.twins import stir_things_up

PAYOUTS = [
    "Ann: 3 gold pieces, each winner's share, for the blue team.",
    "Di: 2 gold pieces as the Boss: the share of 3, one less (the Boss wins with either team).",
    "Ed: 1 gold piece as the Profiteer: the share of 3, two less (the Profiteer wins with every side).",
]
THEFTS = [
    "Gus had a Theft but could not steal, being trapped.",
    "Flo played a Theft and stole 1 gold piece from Ann.",
]


def submit(runtime: Runtime, game_id: str, seat: int, move: dict[str, Any]) -> None:
    seq = runtime.games.current_state(game_id).seq
    assert seq is not None
    runtime.games.submit_move(game_id, seat, move, seq, f"m-{seq}")
    compose_waiting_mail(runtime)


def play_the_example(runtime: Runtime, round_number: int) -> str:
    """Bo (green) reaches the gold past a blue door; Flo steals from Ann; Gus, trapped, cannot."""
    state = rulebook_example(round_number)
    game_id = store_game(runtime, state)
    v = variant_of(state)
    straight = next(c for c in state.hands[1] if v.cards[c].name == "straight_ew")
    submit(runtime, game_id, 1, {"type": "play", "card": straight, "x": 7, "y": 0, "rotated": False})
    assert runtime.games.current_state(game_id).to_act == 5
    submit(runtime, game_id, 5, {"type": "steal", "target": 0})
    return game_id


def test_the_round_digest_explains_each_payout_line_of_the_rulebooks_example(runtime: Runtime) -> None:
    game_id = play_the_example(runtime, 1)

    [(_, text, page)] = bodies(runtime, game_id, "ann@example.org", "round_digest")

    flat = " ".join(text.split())
    assert ("Bo (green gold-digger) reached the gold, so the blue team wins"
            " (a Blue door bars the green team's way") in flat
    for line in PAYOUTS + THEFTS:
        assert line in flat, line
    assert "Each winner's share this round: 3 gold pieces" in flat
    assert "Ann (you): blue gold-digger, +2 gold pieces" in flat  # 3 paid, 1 stolen
    assert "Gus: saboteur, trapped, no gold pieces" in flat
    assert "Your gold: this round you gained 2 gold pieces. You now hold 2 gold pieces." in flat
    assert "Flo: has gold" in flat and "Bo: no gold" in flat
    for line in PAYOUTS + THEFTS:
        assert line.replace("'", "&#39;") in page
    # another seat's total is never said, only its payout lines (public, as at the table)
    [(_, bos, _)] = bodies(runtime, game_id, "bo@example.org", "round_digest")
    assert "You now hold 0 gold pieces" in " ".join(bos.split()) and "hold 2 gold pieces" not in bos


def test_the_round_digest_writes_the_saboteur_in_lower_case_like_every_role_mid_sentence(runtime: Runtime) -> None:
    game_id = play_the_example(runtime, 1)

    for _, text, page in bodies(runtime, game_id, "ann@example.org", "round_digest"):
        for part in (" ".join(text.split()), re.sub(r"<[^>]+>", " ", page)):
            # "Saboteur" only as the game's name ("Saboteur 2", the masthead's "Saboteur · <title>", the footer's
            # "New to Saboteur?") or where a sentence starts
            capitalised = re.findall(r"(?<![.!?:>] )(?<!^)\bSaboteurs?\b(?! 2| ·|\?)", part)
            assert capitalised == [], part
            assert re.search(r"\bsaboteur\b", part), part


def test_the_game_over_email_names_the_dwarf_cards_payouts_thefts_and_final_gold_pieces(runtime: Runtime) -> None:
    game_id = play_the_example(runtime, 3)

    [(_, text, page)] = bodies(runtime, game_id, "ann@example.org", "game_over")

    flat = " ".join(text.split())
    for line in PAYOUTS + THEFTS:
        assert line in flat, line
    assert "You won, together with Di!" in flat
    assert "Ann (you) (winner): 2 gold pieces" in flat and "Ed: 1 gold piece" in flat and "Gus: 0 gold pieces" in flat
    assert "Profiteer" in page and "Gold pieces</th>" in page
    assert mailbox(runtime, "round_digest") == []  # the last round's story is in the game-over email


def test_geologists_share_the_crystals_and_the_digest_says_how(runtime: Runtime) -> None:
    roles = ["geologist", "geologist", "saboteur"]
    board = {(1, 0): "crystal_tee_nse", (2, 1): "crystal_cross", (1, 2): "crystal_dead_e"}
    state = arrange(3, variant="saboteur2", draw=0, roles=roles, board=board)
    for seat in range(3):
        state.discard += state.hands[seat][1:]
        state.hands[seat] = state.hands[seat][:1]
    game_id = store_game(runtime, state)

    for _ in range(3):
        current = runtime.games.engine_state(game_id)[0]
        seat = engine.to_act(current)
        submit(runtime, game_id, seat, {"type": "pass", "cards": [current.hands[seat][0]]})

    [(_, text, _)] = bodies(runtime, game_id, "ann@example.org", "round_digest")
    flat = " ".join(text.split())
    assert "Every hand was played out before anyone reached the gold, so the saboteurs' side wins." in flat
    assert "Ann: 1 gold piece as a Geologist, for the 3 crystals on the table, shared by 2 Geologists and " \
           "rounded down." in flat
    assert "Cy: 5 gold pieces, each winner's share, as a saboteur on the winning side." in flat


def test_a_thief_is_emailed_to_decide_whom_to_rob(runtime: Runtime) -> None:
    state = rulebook_example()
    game_id = store_game(runtime, state)
    v = variant_of(state)
    straight = next(c for c in state.hands[1] if v.cards[c].name == "straight_ew")

    submit(runtime, game_id, 1, {"type": "play", "card": straight, "x": 7, "y": 0, "rotated": False})

    [(_, text, page)] = bodies(runtime, game_id, "flo@example.org", "your_turn")
    assert "your Theft lets you steal 1 gold piece from another player: choose Ann or Di or Ed, or let it go" in (
        " ".join(text.split())
    )
    assert "Decide your theft" in page


def test_the_welcome_email_explains_the_expansion(runtime: Runtime, new_game) -> None:
    game_id = new_game(variant="saboteur2")

    [(_, text, _)] = bodies(runtime, game_id, "ann@example.org", "game_started")

    flat = " ".join(text.split())
    assert "How it works (Saboteur 2)" in flat and "the Boss, the Profiteer, a Geologist or a saboteur" in flat
    [(_, base_text, _)] = bodies(runtime, new_game(), "ann@example.org", "game_started")
    assert ("How it works: everyone is a dwarf, secretly either a gold-digger or a saboteur"
            in " ".join(base_text.split()))


# -- hidden information ----------------------------------------------------------------------------------


def test_no_saboteur2_email_contains_a_line_of_an_event_hidden_from_its_recipient(runtime: Runtime) -> None:
    names = ["Ann", "Bo", "Cy", "Di"]
    game_id = store_game(runtime, engine.new_game(names, seed=7, variant="saboteur2"))
    rng = random.Random(7)
    while runtime.games.current_state(game_id).status == "active":
        state, seq = runtime.games.engine_state(game_id)
        seat = engine.to_act(state)
        runtime.games.submit_move(game_id, seat, stir_things_up(state, seat, rng), seq, f"m-{seq}")
        compose_waiting_mail(runtime)  # every turn email written, as it would go out before the next move

    with runtime.db.read() as session:
        batches = list(session.scalars(select(Snapshot.events).order_by(Snapshot.seq)))
    kinds = {event["type"] for batch in batches for event in batch}
    assert {"hands_swapped", "role_seen", "role_changed", "gold_paid"} <= kinds
    for seat, name in enumerate(names):
        seen = {describe_event(e, names) for batch in batches for e in batch if is_visible(e, seat)}
        hidden = {describe_event(e, names) for batch in batches for e in batch if not is_visible(e, seat)}
        secrets = hidden - seen
        mails = mailbox(runtime, to=f"{name.lower()}@example.org")
        assert secrets and {mail.kind for mail in mails} >= {"round_digest", "game_over"}
        for mail in mails:
            for secret in secrets:
                assert secret not in mail.body_text, (mail.kind, secret)
                assert secret.replace("'", "&#39;") not in mail.body_html, (mail.kind, secret)


def test_a_digest_does_not_change_with_others_hands_leftover_dwarf_cards_or_gold_totals(runtime: Runtime) -> None:
    def example_with(bos_gold: int, shuffle: int) -> str:
        state = rulebook_example()
        state.gold_pieces[1] = bos_gold  # Bo's total is his secret (only "has gold" is public)
        pool = state.hands[2] + state.hands[3] + state.draw_pile
        random.Random(shuffle).shuffle(pool)
        state.hands[2], state.hands[3], state.draw_pile = pool[:6], pool[6:12], pool[12:]
        random.Random(shuffle).shuffle(state.spare_roles)
        game_id = store_game(runtime, state)
        v = variant_of(state)
        straight = next(c for c in state.hands[1] if v.cards[c].name == "straight_ew")
        submit(runtime, game_id, 1, {"type": "play", "card": straight, "x": 7, "y": 0, "rotated": False})
        submit(runtime, game_id, 5, {"type": "steal", "target": 0})
        return game_id

    def digest(game_id: str, person: str) -> list[tuple[str, str, str]]:
        """The digest up to the round's opened deal: once a round is over its deal is public by design
        (docs/fairness.md), and the twins were dealt differently."""
        return [(subject, text.split("WHAT REALLY HAPPENED")[0], page.split("What really happened")[0])
                for subject, text, page in bodies(runtime, game_id, person, "round_digest")]

    first, twin = example_with(3, 1), example_with(9, 2)

    for person in ("ann@example.org", "cy@example.org", "di@example.org", "gus@example.org"):
        assert digest(first, person) == digest(twin, person)
    [(_, bo_first, _)] = bodies(runtime, first, "bo@example.org", "round_digest")
    [(_, bo_twin, _)] = bodies(runtime, twin, "bo@example.org", "round_digest")
    assert "You now hold 3 gold pieces" in " ".join(bo_first.split())
    assert "You now hold 9 gold pieces" in " ".join(bo_twin.split())


def test_a_daily_digest_says_who_has_gold_but_never_how_much(runtime: Runtime, clock) -> None:
    state = rulebook_example()
    state.gold_pieces[2] = 4
    store_game(runtime, state)
    digest_seats(runtime, Ann="UTC")

    assert queue_due_daily_digests(runtime.db, clock, runtime.games.mail) == 1

    [mail] = mailbox(runtime, "daily_digest")
    assert "Cy: 6 cards in hand, broken tools: none, has gold" in mail.body_text
    assert "Bo (to play): 1 card in hand, broken tools: none, no gold" in mail.body_text
    assert "4" not in mail.body_text.split("Cy:")[1].split("\n")[0]
    assert ">Has gold</th>" in mail.body_html
