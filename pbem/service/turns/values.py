"""The values the game service takes and gives: a seat to create, a move's result, a seat's view of a game,
a history line, a seat's link; and the limits and sources of what it records."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime

import engine
from pbem.service.seats.languages import SeatLanguages

MAX_TITLE = 200
MAX_NAME = 80
MAX_SUBMISSION_ID = 64
PLAYER = "player"  # a snapshot's source: a person's move, with the id their form sent
SERVER = "server"  # a move the server made (a computer seat, a timeout), the deal or a rollback


@dataclass(frozen=True)
class PlayerSpec:
    """A seat to create: a person with an email address, or a computer player."""

    name: str
    email: str | None = None
    is_bot: bool = False


@dataclass(frozen=True)
class SeatInvite:
    seat: int
    name: str
    email: str | None
    is_bot: bool
    link: str


@dataclass(frozen=True)
class DemoGame:
    game_id: str
    title: str
    invites: list[SeatInvite]
    variant: str = "base"


@dataclass(frozen=True)
class MoveResult:
    game_id: str
    seq: int
    seat: int
    events: list[engine.Event]  # only those this seat may see
    players: list[str]  # the names the events are told with
    game_over: bool
    replayed: bool  # the stored result of an earlier submission with the same id; nothing was applied now
    # The languages of the seat that moved, from the game row the move locked: its page's words need no read.
    reader: SeatLanguages | None = None


@dataclass(frozen=True)
class GameState:
    """What one seat (or an onlooker, seat None) may know about a game right now."""

    game_id: str
    title: str
    status: str
    paused: bool
    seq: int | None
    players: list[str]
    to_act: int | None
    turn_started_at: datetime | None
    view: engine.View | None
    legal_moves: list[engine.Move]
    scores: list[int] | None
    # The table has a channel or someone at it addresses (`games.notices_wanted`): only then are they worth a read.
    notices_wanted: bool = False


@dataclass(frozen=True)
class HistoryEntry:
    seq: int
    created_at: datetime
    actor: int | None
    lines: list[str]
    actor_name: str | None = None  # who held the actor's seat when the move was made



def server_submission_id(kind: str, seq: int) -> str:
    """An id for a move the server makes (`kind`: "bot", "timeout"): its own namespace (source SERVER), and
    unguessable all the same."""
    return f"{kind}-{seq}-{secrets.token_urlsafe(12)}"
