"""Swap Your Hats keeps the old dwarf card secret for good: two games identical but for the card a seat gives up
(and so for the leftover dwarf cards) show every other seat exactly the same pages, JSON, round page, sealed deal,
replay, archive and emails, during the game and after it. Rulebook: the old dwarf card is discarded "without
showing it to anyone"; only its holder knew it."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

import engine
from engine.variants import variant_of
from pbem.models import Game, OutboxMessage, RoundCommitment
from pbem.runtime import Runtime
from tests.support.games import dig_for_gold, seat_token, store_game
from tests.support.web import app_runtime

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve"]
HOLDER = 2  # Cat gives her dwarf card up; Ann, who plays the card, never saw it
SALT = "5a" * 32
HEX = re.compile(r"\b[0-9a-f]{64}\b")
LINK = re.compile(r"https?://[^\s\"'<>)]+|/(?:table|play|host)/[^\s\"'<>)?]+")
SUBMISSION = re.compile(r'((?:name="(?:submission_id|csrf_token)" value=|data-csrf=|"submission_id":)")[^"]*(")')


def twin_deals(options: dict[str, Any]) -> tuple[engine.Game, engine.Game]:
    """A Saboteur 2 deal where the first player holds Swap Your Hats, and its twin in which the holder's dwarf
    card is traded with a different leftover (not the one the swap hands out)."""
    for seed in range(100):
        g = engine.new_game(NAMES, seed=seed, variant="saboteur2", options=options)
        v = variant_of(g)
        if g.turn == HOLDER or len(set(g.spare_roles[:-1]) - {g.roles[HOLDER]}) == 0:
            continue
        swap = next(card for card in g.draw_pile if v.cards[card].effect == "swap_hats") if any(
            v.cards[card].effect == "swap_hats" for card in g.draw_pile) else None
        if swap is None:
            continue
        at = g.draw_pile.index(swap)
        g.draw_pile[at], g.hands[g.turn][0] = g.hands[g.turn][0], swap
        twin = g.clone()
        other = next(i for i, role in enumerate(twin.spare_roles[:-1]) if role != g.roles[HOLDER])
        twin.roles[HOLDER], twin.spare_roles[other] = twin.spare_roles[other], twin.roles[HOLDER]
        return g, twin
    raise AssertionError("no deal fits")


def sealed_at_the_deal(runtime: Runtime, game_id: str, state: engine.Game) -> None:
    """Round 1's seal, as the service makes it when a host starts a game (stored games start unsealed)."""
    record = engine.deal_record(state)
    with runtime.db.write() as session:
        game = session.scalars(select(Game).where(Game.public_id == game_id)).one()
        session.add(RoundCommitment(game_id=game.id, round=1, dealt_seq=0, commitment=engine.commitment(record, SALT),
                                    salt=SALT, record=record, created_at=runtime.clock.now()))


def play(runtime: Runtime, game_ids: list[str], rng: random.Random, moves: int | None = None) -> None:
    """The same moves in both games (chosen in the first), until `moves` are made or the game is over."""
    made = 0
    while moves is None or made < moves:
        state, seq = runtime.games.engine_state(game_ids[0])
        if engine.is_over(state):
            return
        seat = engine.to_act(state)
        assert seat is not None
        move = swap_hats_on_holder(state, seat) if made == 0 and moves == 1 else dig_for_gold(state, seat, rng)
        for game_id in game_ids:
            runtime.games.submit_move(game_id, seat, move, seq, f"m-{seq}")
        made += 1


def swap_hats_on_holder(state: engine.Game, seat: int) -> dict[str, Any]:
    return next(m for m in engine.legal_moves(state, seat) if m.get("target") == HOLDER
                and variant_of(state).cards[m["card"]].effect == "swap_hats")


def same_for_all(text: str, game_ids: list[str]) -> str:
    """Set aside what differs between any two games by construction: ids, links with their tokens, per-render
    form ids, and 64-hex values (salts, digests and fingerprints: random, and telling nothing without a salt)."""
    for game_id in game_ids:
        text = text.replace(game_id, "GAME")
    return HEX.sub("#", LINK.sub("LINK", SUBMISSION.sub(r"\1-\2", text)))


def everything_seen(client: FlaskClient, game_id: str, rounds: list[int]) -> list[str]:
    """The seat's pages and JSON, less the finished game's downloads (`downloads`)."""
    base = f"/table/{game_id}"
    paths = [base, f"{base}/state.json", f"{base}/replay", f"{base}/replay?step=0", f"{base}/replay?step=1"]
    for number in rounds:
        paths += [f"{base}/rounds/{number}", f"{base}/rounds/{number}/deal.json"]
    return [fetched(client, path, game_id) for path in paths]


def downloads(client: FlaskClient, game_id: str) -> list[str]:
    """The finished game's replay file and archive, through the seat's own address."""
    return [fetched(client, f"/table/{game_id}/{path}", game_id) for path in ("archive.json", "replay.html")]


def fetched(client: FlaskClient, path: str, game_id: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    return f"{path.replace(game_id, 'GAME')}\n{response.get_data(as_text=True)}"


def mail_of(runtime: Runtime, game_id: str, address: str) -> list[str]:
    with runtime.db.read() as session:
        game = session.scalars(select(Game).where(Game.public_id == game_id)).one()
        rows = session.scalars(select(OutboxMessage).where(
            OutboxMessage.game_id == game.id, OutboxMessage.to_address == address).order_by(OutboxMessage.id))
        return [f"{row.kind}\n{row.subject}\n{row.body_text}\n{row.body_html}" for row in rows]


@pytest.mark.slow
@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)  # a property of what is shown
@pytest.mark.parametrize("private_moves", [True, False], ids=["private-moves-told", "private-moves-kept"])
def test_only_the_holder_ever_sees_the_dwarf_card_given_up_to_swap_your_hats(app: Flask, private_moves: bool) -> None:
    runtime = app_runtime(app)
    real, twin = twin_deals({"recap_private_moves": private_moves})
    game_ids = [store_game(runtime, real), store_game(runtime, twin)]
    for game_id, state in zip(game_ids, (real, twin), strict=True):
        sealed_at_the_deal(runtime, game_id, state)
    clients = {(game_id, seat): app.test_client() for game_id in game_ids for seat in range(5)}
    for (game_id, seat), client in clients.items():
        client.get(f"/play/{seat_token(runtime, game_id, seat)}")
    rng = random.Random(1)

    def compare(over: bool, rounds: list[int]) -> None:
        for seat in range(5):
            address = f"{NAMES[seat].lower()}@example.org"
            pages = [same_for_all("\n".join(everything_seen(clients[(game_id, seat)], game_id, rounds)), game_ids)
                     for game_id in game_ids]
            mail = [same_for_all("\n".join(mail_of(runtime, game_id, address)), game_ids) for game_id in game_ids]
            if seat != HOLDER:
                assert pages[0] == pages[1] and mail[0] == mail[1], (
                    f"{NAMES[seat]} can tell which dwarf card {NAMES[HOLDER]} gave up"
                )
            elif over:  # her emails still say what she saw; the finished game's pages say it to no one
                assert pages[0] == pages[1], f"the finished game shows {NAMES[HOLDER]} the card she gave up"
            else:  # she saw her own card while playing
                assert (pages[0], mail[0]) != (pages[1], mail[1]), "the twins must really differ where the holder looks"
        if over:
            # A finished game's downloads are made from the game alone, not from who asks: the first game's five
            # seats must be served the same bytes, and every seat of the twin that file.
            files = [downloads(clients[(game_ids[0], seat)], game_ids[0]) for seat in range(5)]
            assert all(copy == files[0] for copy in files), "a seat is served its own copy of a download"
            shared = same_for_all("\n".join(files[0]), game_ids)
            for seat in range(5):
                twin_files = downloads(clients[(game_ids[1], seat)], game_ids[1])
                assert same_for_all("\n".join(twin_files), game_ids) == shared, (
                    f"the downloads tell {NAMES[seat]} which dwarf card {NAMES[HOLDER]} gave up"
                )

    play(runtime, game_ids, rng, moves=1)  # Ann makes Cat swap her dwarf card
    compare(over=False, rounds=[])
    while runtime.games.engine_state(game_ids[0])[0].round == 1:
        play(runtime, game_ids, rng, moves=2)
    compare(over=False, rounds=[1])
    play(runtime, game_ids, rng)
    assert all(engine.is_over(runtime.games.engine_state(game_id)[0]) for game_id in game_ids)
    compare(over=True, rounds=[1, 2, 3])
