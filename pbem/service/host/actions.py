"""The host's actions that other services carry out (start, turn controls, rematch, the host's word): each checks
first that the game is the host's (GameNotFound, or NotYourGame for another host's game), then acts. The rest
(seats, rollback, end, reveal) is `Moderation`'s, which checks the same inside its transaction."""

from __future__ import annotations

from pbem.service.host.host_access import HostSession
from pbem.service.host.hosting import Hosting
from pbem.service.host.rematch import Rematches
from pbem.service.talk.chat import ChatService
from pbem.service.turns.games import GameService
from pbem.service.turns.turn_controls import TurnControls


class HostActions:
    def __init__(
        self, hosting: Hosting, games: GameService, controls: TurnControls, rematches: Rematches, chat: ChatService,
    ) -> None:
        self._hosting, self._games, self._controls = hosting, games, controls
        self._rematches, self._chat = rematches, chat

    # -- the game as a whole -----------------------------------------------------------------------

    def start(self, game_id: str, host: HostSession) -> None:
        self._hosting.owned(game_id, host)
        self._games.start_game(game_id, actor_email=host.email)

    def pause(self, game_id: str, host: HostSession) -> None:
        self._hosting.owned(game_id, host)
        self._controls.pause(game_id, actor_email=host.email)

    def resume(self, game_id: str, host: HostSession) -> None:
        self._hosting.owned(game_id, host)
        self._controls.resume(game_id, actor_email=host.email)

    def skip(self, game_id: str, host: HostSession) -> None:
        self._hosting.owned(game_id, host)
        self._controls.skip(game_id, actor_email=host.email)

    def extend_deadline(self, game_id: str, hours: int, host: HostSession) -> None:
        self._hosting.owned(game_id, host)
        self._controls.extend_deadline(game_id, hours, actor_email=host.email)

    def rematch(self, game_id: str, order: str, host: HostSession) -> str:
        """The rematch's public id (the existing one if it was started before)."""
        self._hosting.owned(game_id, host)
        return self._rematches.start(game_id, requested_by=host.email, order=order)

    def allow_player_rematch(self, game_id: str, allowed: bool, host: HostSession) -> None:
        self._hosting.owned(game_id, host)
        self._rematches.allow_players(game_id, allowed)

    def say(self, game_id: str, text: object, host: HostSession) -> None:
        """The host's word in the table's chat."""
        self._hosting.owned(game_id, host)
        self._chat.post_as_host(game_id, text)

    # -- one seat ------------------------------------------------------------------------------------

    def nudge(self, game_id: str, seat: int, note: object, host: HostSession) -> None:
        self._hosting.owned(game_id, host)
        self._controls.nudge(game_id, seat, actor_email=host.email, note=note)

    def let_auto_pass(self, game_id: str, seat: int, on: bool, host: HostSession) -> None:
        self._hosting.owned(game_id, host)
        self._controls.let_auto_pass(game_id, seat, on, actor_email=host.email)
