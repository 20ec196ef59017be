"""Verifiable deals: every round is sealed in the transaction that deals it, before anyone can act; the seal is
shown from the start; the salt and the deal stay out of every page, JSON answer and email until the round ends,
and then open the seal exactly."""

from __future__ import annotations

import hashlib
import json
import random
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

import engine
from pbem.models import Game, RoundCommitment, Snapshot
from pbem.runtime import Runtime
from tests.support.database import dump
from tests.support.games import NewGame, dig_for_gold, dig_one_move, seat_token, store_game
from tests.support.mail import compose_waiting_mail, flat, mailbox
from tests.support.web import app_runtime


def seals(runtime: Runtime, game_id: str) -> list[RoundCommitment]:
    with runtime.db.read() as session:
        return list(session.scalars(
            select(RoundCommitment).join(Game, Game.id == RoundCommitment.game_id)
            .where(Game.public_id == game_id).order_by(RoundCommitment.round)
        ))


def snapshot(runtime: Runtime, game_id: str, seq: int) -> Snapshot:
    with runtime.db.read() as session:
        return session.scalars(
            select(Snapshot).join(Game, Game.id == Snapshot.game_id)
            .where(Game.public_id == game_id, Snapshot.seq == seq)
        ).one()


def test_every_round_is_sealed_before_anyone_acts_in_it(runtime: Runtime, new_game: NewGame) -> None:
    game_id = new_game()
    rng = random.Random(5)
    rounds_seen = set()

    state, _ = runtime.games.engine_state(game_id)
    while not engine.is_over(state):
        if state.phase == "play":
            assert state.round in {seal.round for seal in seals(runtime, game_id)}, "a round is played unsealed"
            rounds_seen.add(state.round)
        state = dig_one_move(runtime, game_id, rng)

    assert rounds_seen == {1, 2, 3}
    for seal in seals(runtime, game_id):
        dealt = snapshot(runtime, game_id, seal.dealt_seq)
        assert seal.dealt_seq == 0 if seal.round == 1 else any(
            e["type"] == "round_started" and e["round"] == seal.round for e in dealt.events)
        record = engine.deal_record(engine.Game.from_dict(dealt.state))
        assert seal.record == record
        assert seal.commitment == engine.commitment(record, seal.salt)
        assert re.fullmatch(r"[0-9a-f]{64}", seal.salt) and seal.created_at == dealt.created_at


def test_salts_are_fresh_for_every_round(runtime: Runtime, new_game: NewGame) -> None:
    first, second = new_game(), new_game()

    salts = [seal.salt for game_id in (first, second) for seal in seals(runtime, game_id)]

    assert len(set(salts)) == len(salts) == 2


def test_a_move_that_fails_after_dealing_leaves_no_seal_behind(
    runtime: Runtime, new_game: NewGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = new_game()
    rng = random.Random(5)
    state, _ = runtime.games.engine_state(game_id)
    while True:  # up to the move that deals round 2
        seat = engine.to_act(state)
        move = dig_for_gold(state, seat, rng)
        after, events = engine.apply_move(state, seat, move)
        if any(event["type"] == "round_started" for event in events):
            break
        state = _play(runtime, game_id, seat, move)
    before = dump(runtime.db)

    def broken_mail(*_: Any) -> None:
        raise RuntimeError("the mail template broke")

    monkeypatch.setattr(runtime.games.mail, "after_move", broken_mail)
    with pytest.raises(RuntimeError):
        _play(runtime, game_id, seat, move)

    assert dump(runtime.db) == before
    assert [seal.round for seal in seals(runtime, game_id)] == [1]


def in_round_two(runtime: Runtime, game_id: str) -> str:
    """The game, dug through round 1: its digest went out and round 2 is dealt (and sealed)."""
    rng = random.Random(5)
    state, _ = runtime.games.engine_state(game_id)
    while state.round < 2:
        state = dig_one_move(runtime, game_id, rng)
    return game_id


def _play(runtime: Runtime, game_id: str, seat: int, move: dict[str, Any]) -> engine.Game:
    seq = runtime.games.engine_state(game_id)[1]
    runtime.games.submit_move(game_id, seat, move, seq, f"move-{seq}")
    return runtime.games.engine_state(game_id)[0]


# -- what shows, and when --------------------------------------------------------------------------------


def seen_everywhere(client: FlaskClient, game_id: str, mail: str) -> str:
    """Everything one seat can fetch about the game, with `mail` (every email queued so far), as one text."""
    parts = []
    for path in ("", "/state.json", "/replay", "/replay?step=0"):
        response = client.get(f"/table/{game_id}{path}")
        assert response.status_code == 200, path
        parts.append(response.get_data(as_text=True))
    for number in (1, 2, 3):
        for path in (f"/rounds/{number}", f"/rounds/{number}/deal.json"):
            response = client.get(f"/table/{game_id}{path}")
            parts.append(response.get_data(as_text=True))
    parts.append(mail)
    return "\n".join(parts)


def stage(state: engine.Game) -> tuple[int, str, int, int]:
    """Where a game stands for its seals: the round and its phase, whether the draw pile is full, down to its
    last card or empty, and how many rounds have ended."""
    return state.round, state.phase, min(len(state.draw_pile), 2), len(state.results)


@pytest.mark.slow
@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)  # a property of the pages, not the database
def test_salt_and_deal_show_nowhere_until_their_round_ends_and_then_everywhere(app: Flask, new_game: NewGame) -> None:
    runtime = app_runtime(app)
    game_id = new_game()
    clients = {}
    for seat in range(3):
        clients[seat] = app.test_client()
        clients[seat].get(f"/play/{seat_token(runtime, game_id, seat)}")
    rng = random.Random(8)
    state, _ = runtime.games.engine_state(game_id)
    moves = 0
    checked = None
    while True:
        # A seal is kept apart from the game state and opened when its round ends; a move that leaves the stage
        # as it was (round, phase, pile full or nearly out, rounds ended) changes nothing of what may show of
        # it. So each stage is checked where it begins, every tenth move besides, and the finished game.
        if stage(state) != checked or moves % 10 == 0 or engine.is_over(state):
            checked = stage(state)
            finished = {r["round"] for r in state.results}
            playing = [seal for seal in seals(runtime, game_id) if seal.round not in finished]
            ended = [seal for seal in seals(runtime, game_id) if seal.round in finished]
            mail = "\n".join(message.body_text + message.body_html for message in mailbox(runtime))
            for seat, client in clients.items():
                text = seen_everywhere(client, game_id, mail)
                for seal in playing:
                    assert seal.commitment in text  # public from the deal on
                    assert seal.salt not in text, f"round {seal.round}'s salt shows to seat {seat} during the round"
                    for part in engine.opening(seal.record, seal.salt)["parts"]:
                        assert part["salt"] not in text, f"round {seal.round}'s {part['part']} shows to seat {seat}"
                    assert f'"draw_pile":{seal.record["draw_pile"]}'.replace(" ", "") not in text
                for seal in ended:
                    assert seal.salt not in text  # the round's secret never shows: only each part's own salt
                    assert engine.opening_text(engine.opening(seal.record, seal.salt)) in text
        if engine.is_over(state):
            break
        state = dig_one_move(runtime, game_id, rng)
        compose_waiting_mail(runtime)  # every turn email written, as it goes out before the next move
        moves += 1

    assert {r["round"] for r in state.results} == {1, 2, 3}


def test_the_first_email_of_each_round_carries_its_fingerprint(runtime: Runtime, new_game: NewGame) -> None:
    game_id = in_round_two(runtime, new_game())
    first, second = seals(runtime, game_id)

    started = mailbox(runtime, "game_started", "ann@example.org")[0]
    digest = mailbox(runtime, "round_digest", "ann@example.org")[0]

    assert f"Fingerprint of the deal (SHA-256): {first.commitment}" in flat(started.body_text)
    assert first.commitment in started.body_html
    assert f"ROUND 2 IS SEALED\nFingerprint of the deal (SHA-256):\n{second.commitment}" in digest.body_text
    assert second.salt not in digest.body_text + digest.body_html


def test_the_round_end_digest_names_the_opened_seal_and_links_its_round_page(
    runtime: Runtime, new_game: NewGame
) -> None:
    game_id = in_round_two(runtime, new_game())
    first, _ = seals(runtime, game_id)

    digest = mailbox(runtime, "round_digest", "cat@example.org")[0]

    assert ("ROUND 1'S DEAL, OPENED\nWhen round 1 was dealt, we sent you the fingerprint of its deal:\n"
            f"  {first.commitment}") in (
        digest.body_text
    )
    assert re.search(r"by hand with sha256sum:\nhttps://pbem\.test/play/[^/\s]+/rounds/1\n", digest.body_text)
    assert first.commitment in digest.body_html and "/rounds/1" in digest.body_html
    opening = engine.opening_text(engine.opening(first.record, first.salt))
    assert opening not in digest.body_text + digest.body_html  # the deal itself is on the round page, not in the mail
    assert '"format":"saboteur-deal' not in digest.body_text + digest.body_html


def test_the_round_page_offers_the_exact_bytes_for_sha256sum(app: Flask, new_game: NewGame) -> None:
    runtime = app_runtime(app)
    game_id = in_round_two(runtime, new_game())
    client = app.test_client()
    client.get(f"/play/{seat_token(runtime, game_id, 1)}")
    [first, _] = seals(runtime, game_id)

    page = client.get(f"/table/{game_id}/rounds/1")
    download = client.get(f"/table/{game_id}/rounds/1/deal.json")

    assert page.status_code == download.status_code == 200
    assert engine.opened_commitment(json.loads(download.data)) == first.commitment
    assert download.data.decode() == engine.opening_text(engine.opening(first.record, first.salt))
    assert download.headers["Content-Disposition"] == 'attachment; filename="round-1-deal.json"'
    html = page.get_data(as_text=True)
    assert f'<input id="verify-commitment" value="{first.commitment}"' in html
    assert "digest\\)" in html and "round-1-deal.json | sed" in html and "cut -c12-75" in html  # by hand, in a shell
    assert client.get(f"/table/{game_id}/rounds/2").status_code == 409
    assert client.get(f"/table/{game_id}/rounds/2/deal.json").get_json()["error"] == "round_not_over"
    assert client.get(f"/table/{game_id}/rounds/7").status_code == 404


def test_a_seal_stored_in_the_first_format_is_still_opened_whole(app: Flask, new_game: NewGame) -> None:
    """Seals stored (and fingerprints published) before deals were sealed in parts keep their meaning."""
    runtime = app_runtime(app)
    game_id = in_round_two(runtime, new_game())
    first = seals(runtime, game_id)[0]
    whole = {**first.record, "format": "saboteur-deal-1"}
    with runtime.db.write() as session:
        stored = session.get(RoundCommitment, first.id)
        stored.record, stored.commitment = whole, hashlib.sha256(engine.sealed_bytes(whole, first.salt)).hexdigest()
    client = app.test_client()
    client.get(f"/play/{seat_token(runtime, game_id, 1)}")

    page = client.get(f"/table/{game_id}/rounds/1").get_data(as_text=True)
    download = client.get(f"/table/{game_id}/rounds/1/deal.json")

    assert download.data == engine.sealed_bytes(whole, first.salt)
    assert hashlib.sha256(download.data).hexdigest() == seals(runtime, game_id)[0].commitment
    assert "sha256sum round-1-deal.json" in page and "one line of JSON, the salt inside" in page


def test_a_round_dealt_without_a_seal_says_so(app: Flask) -> None:
    """Games stored before sealing existed (here: stored directly, as tests do) have nothing to check."""
    runtime = app_runtime(app)
    rng = random.Random(1)
    state = engine.new_game(["Ann", "Ben", "Cat"], seed=1)
    while state.round == 1 or state.phase != "play":
        seat = engine.to_act(state)
        state, _ = engine.apply_move(state, seat, engine.bots.choose(state, seat, rng))
    game_id = store_game(runtime, state)
    while state.round == 2:
        state = dig_one_move(runtime, game_id, rng)
    client = app.test_client()
    client.get(f"/play/{seat_token(runtime, game_id, 0)}")

    page = client.get(f"/table/{game_id}/rounds/2")

    assert page.status_code == 200
    assert "This round was dealt before deals were sealed" in page.get_data(as_text=True)
    assert client.get(f"/table/{game_id}/rounds/2/deal.json").status_code == 404
    assert client.get(f"/table/{game_id}/rounds/1").status_code == 404  # the stored game began in round 2
    assert client.get(f"/table/{game_id}/rounds/3").status_code == 409


def test_reading_the_seals_changes_nothing(app: Flask, new_game: NewGame) -> None:
    runtime = app_runtime(app)
    game_id = new_game()
    client = app.test_client()
    client.get(f"/play/{seat_token(runtime, game_id, 0)}")
    before = dump(runtime.db)

    for path in ("", "/rounds/1", "/rounds/1/deal.json", "/replay", "/replay.html", "/archive.json"):
        client.get(f"/table/{game_id}{path}")
        client.head(f"/table/{game_id}{path}")

    assert dump(runtime.db) == before
