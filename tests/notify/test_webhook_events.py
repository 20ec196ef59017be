"""A game made by `pbem create-game --webhook json://127.0.0.1:PORT/hook` (a test set-up that allows this machine's
own receivers) posts each public event to it once, played to its end: every turn by name, a pause, a replacement,
each round's result and game over; the worker running after every change, and again much later, sends no POST
twice. The words are those docs/notifications.md lists."""

from __future__ import annotations

import dataclasses
import random
import re
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import select

from pbem.chance import SeededChance
from pbem.cli import main
from pbem.clock import SettableClock
from pbem.config import Config
from pbem.models import Notice
from pbem.runtime import Runtime, build_runtime
from pbem.service.host.host_access import HostSession
from pbem.words.counting import and_list
from tests.support.games import PEOPLE, play, random_move
from tests.support.notices import TOKEN, never_told
from tests.support.receivers import Receiver, receiver

PLAYERS = ["Ann <ann@example.org>", "Ben <ben@example.org>", "Cat <cat@example.org>"]


@pytest.fixture
def loopback(config: Config, clock: SettableClock, chance: SeededChance) -> Iterator[Runtime]:
    allowed = dataclasses.replace(config.notifications, allow_private_addresses=True, timeout_seconds=2)
    built = build_runtime(dataclasses.replace(config, notifications=allowed), clock=clock, chance=chance)
    yield built
    built.close()


@pytest.fixture
def hook() -> Iterator[Receiver]:
    with receiver() as running:
        yield running


def create_game(config: Config, tmp_path: Path, webhook: str) -> str:
    path = tmp_path / "config.toml"
    path.write_text(f'base_url = "{config.base_url}"\ndatabase_url = "{config.database_url}"\n'
                    f'instance_path = "{config.instance_path}"\n'
                    "[notifications]\nallow_private_addresses = true\n")
    args = ["--config", str(path), "create-game", "--title", "Hooked"]
    for player in PLAYERS:
        args += ["--player", player]
    result = CliRunner().invoke(main, [*args, "--webhook", webhook])
    assert result.exit_code == 0, result.output
    found = re.search(r"game (\S+) started", result.output)
    assert found, result.output
    return found.group(1)


def test_a_game_made_with_a_webhook_posts_each_public_event_to_it_once(
    loopback: Runtime, config: Config, clock: SettableClock, tmp_path: Path, hook: Receiver
) -> None:
    game_id = create_game(config, tmp_path, hook.url("json", "hook"))
    clock.set(datetime.now(UTC) + timedelta(minutes=1))  # the command ran on the real clock
    send = loopback.notice_sender().run
    send()
    host = HostSession("ann@example.org", is_admin=False)
    loopback.turn_controls.pause(game_id, actor_email=host.email)
    send()
    loopback.turn_controls.resume(game_id, actor_email=host.email)
    loopback.moderation.replace_player(game_id, 2, "Dan", "dan@example.org", host=host)
    send()
    rng, turns = random.Random(7), 1
    while loopback.games.current_state(game_id).status == "active":
        seat, move, _ = random_move(loopback, game_id, rng)
        play(loopback, game_id, seat, move)
        turns += 1
        send()
    clock.advance(timedelta(days=2))
    assert send().sent == 0  # nothing left, nothing sent again

    lines = [arrived.json["message"].split("\n") for arrived in hook.arrived]
    assert {(a.method, a.path, a.json["title"]) for a in hook.arrived} == {("POST", "/hook", "Hooked - Saboteur")}
    assert {link for _, link in lines} == {f"https://pbem.test/table/{game_id}"}
    firsts = [first for first, _ in lines]
    assert firsts[:2] == ["Ann's turn.", "The host paused the game."]
    assert ("Seat 3 changed hands: Dan takes over from Cat. A new email address has been sent what the seat knows "
            "(its role, hand and map results).") in firsts
    told = Counter("turn" if first.endswith("'s turn.") else first.split(":")[0] for first in firsts)
    rounds = max(int(m.group(1)) for first in firsts if (m := re.match(r"Round (\d+) is over", first)))
    assert told["turn"] <= turns  # a turn ends the game without a next one; a gold pick is the same turn
    assert told == Counter({"turn": told["turn"], "The host paused the game.": 1, "Seat 3 changed hands": 1,
                            **{f"Round {n} is over": 1 for n in range(1, rounds + 1)}, "Game over": 1})
    assert re.fullmatch(r"Game over: .+ won", firsts[-1])
    with loopback.db.read() as session:
        rows = session.execute(select(Notice.status, Notice.attempts, Notice.dedupe_key)).all()
    assert {(status, attempts) for status, attempts, _ in rows} == {("sent", 1)}
    assert len(rows) == len(hook.arrived) == len({key for _, _, key in rows})
    every_body = b"".join(arrived.body for arrived in hook.arrived).decode()
    assert not TOKEN.search(every_body)
    assert not any(secret in every_body for secret in never_told(loopback, game_id))


def test_game_over_names_the_winners_who_hold_their_seats_now(loopback: Runtime, hook: Receiver) -> None:
    game_id = loopback.games.create_game(title="Hooked", players=PEOPLE, host_email="host@example.org")
    loopback.notices.set_channel(game_id, hook.url("json", "hook"))
    loopback.games.start_game(game_id)
    host = HostSession("host@example.org", is_admin=False)
    for seat, name in enumerate(("Dan", "Eve", "Fay")):  # every seat changes hands, so every winner's name does
        loopback.moderation.replace_player(game_id, seat, name, f"{name.lower()}@example.org", host=host)
    rng = random.Random(3)
    while loopback.games.current_state(game_id).status == "active":
        seat, move, _ = random_move(loopback, game_id, rng)
        play(loopback, game_id, seat, move)
    loopback.notice_sender().run()

    final = loopback.games.current_state(game_id)
    assert final.view is not None
    winners = and_list([final.players[seat] for seat in final.view["final"]["winners"]])
    assert [a.json["message"].split("\n")[0] for a in hook.arrived][-1] == f"Game over: {winners} won"
    assert not {"Ann", "Ben", "Cat"} & set(winners.replace(" and ", ", ").split(", "))
