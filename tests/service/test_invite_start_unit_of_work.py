"""Starting a game is one unit of work: from an invite (by the host, or by the confirmation that fills it) and as a
rematch, the game is made, dealt, mailed and linked in one transaction, so a failure half-way leaves nothing
behind. A confirmation locks the invite before it reads it, so one racing the host's start is never told
"confirmed" for a game that started without it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import event, select
from sqlalchemy.orm import selectinload

from pbem.chance import SeededChance
from pbem.clock import SettableClock
from pbem.config import Config
from pbem.errors import InviteUnavailable
from pbem.models import Game, Invite, Joiner
from pbem.runtime import Runtime, build_runtime
from pbem.service.host.host_access import HostSession
from pbem.service.host.invite_views import InviteSettings
from pbem.service.host.invites import STARTED
from pbem.service.turns.values import PlayerSpec
from tests.support.database import dump
from tests.support.games import link_token
from tests.support.invites import confirm_path
from tests.support.web import HOST

THE_HOST = HostSession(HOST, is_admin=False)


class QueueBroke(Exception):
    """The failure a test makes happen in the middle of a start."""


def open_invite(runtime: Runtime, *, places: int, auto_start: bool = False) -> tuple[str, str]:
    """An invite for `places` people, players allowed a rematch: its id and the token of its shared link."""
    invite_id = runtime.invites.create(THE_HOST, InviteSettings(
        title="Open mine", variant="base", options=None, policies={}, places=places, bots=0, seat_order="joined",
        auto_start=auto_start, players_may_rematch=True, host_name=None,
    ))
    return invite_id, link_token(runtime.invites.detail(invite_id, THE_HOST).link)


def joined(runtime: Runtime, token: str, name: str) -> str:
    """`name` joins (from a client of their own); the token of the confirmation link they are emailed."""
    email = f"{name.lower()}@example.org"
    runtime.invites.join(token, name, email, "Europe/Paris", client=f"client-of-{name}")
    return link_token(confirm_path(runtime, email))


def confirmed(runtime: Runtime, token: str, *names: str) -> None:
    for name in names:
        runtime.invites.confirm(joined(runtime, token, name))


def games(runtime: Runtime) -> list[Game]:
    with runtime.db.read() as session:
        return list(session.scalars(select(Game).options(selectinload(Game.seats)).order_by(Game.id)))


def break_the_mail_queue_at_the_start(runtime: Runtime, monkeypatch: pytest.MonkeyPatch) -> None:
    """Queueing the emails of a game that starts raises: the last step of a start, after every write."""

    def broken(*_: Any) -> None:
        raise QueueBroke()

    monkeypatch.setattr(runtime.games.mail, "game_started", broken)


@pytest.fixture
def host_runtime(config: Config, clock: SettableClock, chance: SeededChance) -> Iterator[Runtime]:
    """The host's web worker: a runtime of its own, with its own connections."""
    built = build_runtime(config, clock=clock, chance=chance)
    yield built
    built.close()


def test_a_confirmation_racing_the_hosts_start_is_told_the_game_started_without_it(
    runtime: Runtime, host_runtime: Runtime
) -> None:
    if runtime.db.is_sqlite:
        pytest.skip("SQLite's write lock lets one transaction at a time in: a confirmation and a start never overlap")
    invite_id, token = open_invite(runtime, places=4)
    confirmed(runtime, token, "Ann", "Ben", "Cat")
    dans_link = joined(runtime, token, "Dan")
    started: list[str] = []

    def host_starts_before_the_confirm_locks(_conn: Any, _cursor: Any, sql: str, *_: Any) -> None:
        if "FROM invites" in sql and "FOR UPDATE" in sql and not started:
            started.append(host_runtime.invites.start(invite_id, THE_HOST))

    event.listen(runtime.db.engine, "before_cursor_execute", host_starts_before_the_confirm_locks)
    try:
        with pytest.raises(InviteUnavailable) as refused:
            runtime.invites.confirm(dans_link)
    finally:
        event.remove(runtime.db.engine, "before_cursor_execute", host_starts_before_the_confirm_locks)

    assert started and refused.value.message == STARTED
    [game] = games(runtime)
    assert game.public_id == started[0] and game.names == ["Ann", "Ben", "Cat"]
    with runtime.db.read() as session:
        assert session.scalar(select(Joiner.confirmed_at).where(Joiner.name == "Dan")) is None


def test_a_start_from_an_invite_that_fails_half_way_leaves_nothing_behind(
    runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    invite_id, token = open_invite(runtime, places=3)
    confirmed(runtime, token, "Ann", "Ben", "Cat")
    before = dump(runtime.db)
    break_the_mail_queue_at_the_start(runtime, monkeypatch)

    with pytest.raises(QueueBroke):
        runtime.invites.start(invite_id, THE_HOST)

    assert dump(runtime.db) == before  # no game, the invite still waiting for its start
    monkeypatch.undo()
    game_id = runtime.invites.start(invite_id, THE_HOST)
    with runtime.db.read() as session:
        assert session.scalar(select(Invite.game_id)) == games(runtime)[0].id
    assert games(runtime)[0].public_id == game_id


def test_a_confirmation_whose_start_fails_half_way_leaves_nothing_behind(
    runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, token = open_invite(runtime, places=3, auto_start=True)
    confirmed(runtime, token, "Ann", "Ben")
    cats_link = joined(runtime, token, "Cat")
    before = dump(runtime.db)
    break_the_mail_queue_at_the_start(runtime, monkeypatch)

    with pytest.raises(QueueBroke):
        runtime.invites.confirm(cats_link)

    assert dump(runtime.db) == before  # Cat may press the button again
    monkeypatch.undo()
    assert runtime.invites.confirm(cats_link).started_game == games(runtime)[0].public_id


def test_a_rematch_that_fails_half_way_leaves_nothing_behind(
    runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    invite_id, token = open_invite(runtime, places=3)
    confirmed(runtime, token, "Ann", "Ben", "Cat")
    game_id = runtime.invites.start(invite_id, THE_HOST)
    runtime.moderation.end_game(game_id, host=THE_HOST)
    before = dump(runtime.db)
    break_the_mail_queue_at_the_start(runtime, monkeypatch)

    with pytest.raises(QueueBroke):
        runtime.rematches.start(game_id, requested_by="ann@example.org", by_player=True)

    assert dump(runtime.db) == before  # no rematch, no game: asking again deals it
    monkeypatch.undo()
    new_id = runtime.rematches.start(game_id, requested_by="ann@example.org", by_player=True)
    assert runtime.rematches.lineage(game_id).next == new_id
    assert [game.public_id for game in games(runtime)] == [game_id, new_id]


def test_a_confirmation_that_fills_a_game_which_cannot_start_keeps_the_place_and_starts_nothing(
    runtime: Runtime,
) -> None:
    _, token = open_invite(runtime, places=3, auto_start=True)
    confirmed(runtime, token, "Ben")
    first_ann = joined(runtime, token, "Ann")
    runtime.invites.join(token, "Ann", "ann.other@example.org", "UTC", client="client-of-the-other-Ann")
    other_ann = link_token(confirm_path(runtime, "ann.other@example.org"))
    runtime.invites.confirm(first_ann)

    confirmation = runtime.invites.confirm(other_ann)  # two Anns: the host must settle it

    assert confirmation.started_game is None and games(runtime) == []
    with runtime.db.read() as session:
        assert session.scalar(select(Invite.started_at)) is None
        places = session.scalars(select(Joiner.confirmed_at)).all()
    assert len(places) == 3 and all(places)


def test_a_game_from_the_new_game_form_that_fails_half_way_leaves_nothing_behind(
    runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    host = HostSession(email="host@example.org", is_admin=False)
    players = [PlayerSpec("Ann", "ann@example.org"), PlayerSpec("Ben", "ben@example.org"),
               PlayerSpec("Cat", "cat@example.org")]
    before = dump(runtime.db)
    break_the_mail_queue_at_the_start(runtime, monkeypatch)

    with pytest.raises(QueueBroke):
        runtime.hosting.create_and_start(host=host, title="Half mine", players=players, variant="base", options=None,
                                         policies={}, client="198.51.100.7", players_may_rematch=True)

    assert dump(runtime.db) == before  # no game, no permission, no count against the host's or the mail limits
    monkeypatch.undo()
    game_id = runtime.hosting.create_and_start(host=host, title="Whole mine", players=players, variant="base",
                                               options=None, policies={}, client="198.51.100.7",
                                               players_may_rematch=True)
    assert runtime.rematches.lineage(game_id).players_may_rematch
