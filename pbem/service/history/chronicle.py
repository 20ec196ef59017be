"""A game's memory, for pages: sealed deals, declassified rounds, replays and the archive.

Each answer is read in one transaction and discloses only what is due (`pbem/service/history/disclosure.py`): a
round's deal and private events once that round is over; every hand and role at every step, and the
archive, once the game is over. The web layer checks who is asking (a seat's link, or the host's pages);
this service decides what that asker may be shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbem.db import Database
from pbem.errors import GameNotOver, GameNotStarted, RoundNotOver
from pbem.i18n import gettext
from pbem.service.history.archive import game_archive
from pbem.service.history.disclosure import disclosure, game_is_closed
from pbem.service.history.fairness import SealedRound, sealed_round, sealed_rounds
from pbem.service.history.recap import Recap, round_recap
from pbem.service.history.replay import Eyes, ReplayStep, eyes_for, replay_all, replay_step
from pbem.service.history.timeline import round_starts
from pbem.service.rows import find_game, require_seat


@dataclass(frozen=True)
class Seals:
    """The seals of a game as the table may see them now."""

    rounds: list[SealedRound]
    current_round: int | None  # the round being played (None once the game is over)
    closed: bool

    @property
    def current(self) -> SealedRound | None:
        return next((seal for seal in self.rounds if seal.round == self.current_round), None)

    @property
    def opened(self) -> list[SealedRound]:
        return [seal for seal in self.rounds if seal.opening is not None]


@dataclass(frozen=True)
class RoundStory:
    """A round that is over: its opened seal (None if it was dealt without one) and its recap."""

    round: int
    seal: SealedRound | None
    recap: Recap


class Chronicle:
    def __init__(self, db: Database) -> None:
        self._db = db

    def seals(self, game_id: str) -> Seals:
        with self._db.read() as session:
            game = find_game(session, game_id)
            known = disclosure(session, game)
            rounds = sealed_rounds(session, game, known)
            playing = [seal.round for seal in rounds if not known.round_is_over(seal.round)]
            return Seals(rounds=rounds, current_round=max(playing, default=None), closed=known.closed)

    def round_story(self, game_id: str, round_number: int) -> RoundStory | None:
        """None when the game has no such round; RoundNotOver while it is being played."""
        with self._db.read() as session:
            game = find_game(session, game_id)
            if round_number not in round_starts(session, game):
                return None
            known = disclosure(session, game)
            if not known.round_is_over(round_number):
                raise RoundNotOver(gettext(
                    "Round %(number)s is still being played: its deal stays sealed until it ends.", number=round_number
                ))
            recap = round_recap(session, game, round_number, known)
            if recap is None:
                return None
            return RoundStory(round=round_number, seal=sealed_round(session, game, round_number, known), recap=recap)

    def replay_step(self, game_id: str, seat: int | None, step: int | None = None) -> ReplayStep:
        """Step `step` (default: the latest) through `seat`'s eyes; `seat=None` is the host's (public) replay."""
        with self._db.read() as session:
            game = find_game(session, game_id)
            if seat is not None:
                require_seat(game, seat)
            if game.current_seq is None:
                raise GameNotStarted()
            return replay_step(session, game, eyes_for(game, seat), game.current_seq if step is None else step)

    def host_replay_step(self, game_id: str, step: int | None = None) -> ReplayStep:
        """The host's replay: the public view while the game runs (a host may be a player), everything after."""
        return self.replay_step(game_id, None, step)

    def replay_all(self, game_id: str) -> list[ReplayStep]:
        """Every step with everything open, for the offline replay file; only once the game is over."""
        with self._db.read() as session:
            game = find_game(session, game_id)
            if not game_is_closed(game):
                raise GameNotOver()
            return list(replay_all(session, game, Eyes(seat=None, open=True)))

    def archive(self, game_id: str, *, include_emails: bool = False) -> dict[str, Any]:
        """The JSON archive (pbem/service/history/archive.py); only once the game is over, for players and host
        alike."""
        with self._db.read() as session:
            game = find_game(session, game_id)
            if not game_is_closed(game):
                raise GameNotOver()
            return game_archive(session, game, include_emails=include_emails)
