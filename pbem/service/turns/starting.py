"""Creating games and starting them: input cleaned and checked against the engine's rules before anything is
written, and the first deal recorded with its emails."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy.orm import Session

import engine
from pbem.addresses import same_mailbox
from pbem.errors import (
    GameAlreadyStarted,
    ValidationError,
)
from pbem.i18n import gettext
from pbem.models import Game, GameStatus, Seat
from pbem.service.rows import lock_game
from pbem.service.seats.languages import game_language
from pbem.service.text import clean_email, clean_line, clean_name
from pbem.service.turns.recording import GameCore
from pbem.service.turns.values import MAX_NAME, MAX_TITLE, SERVER, PlayerSpec
from pbem.words.refusals import engine_words


class Starting(GameCore):
    """Creating a game and dealing its first round."""

    def create_game(
        self,
        *,
        title: str,
        players: Sequence[PlayerSpec],
        host_email: str,
        variant: str = "base",
        options: dict[str, Any] | None = None,
        policies: dict[str, Any] | None = None,
        is_demo: bool = False,
        language: str | None = None,
    ) -> str:
        """Create a game waiting to start; returns its public id. Bad input raises ValidationError."""
        with self._db.write() as session:
            game = self.create_game_in(
                session, title=title, players=players, host_email=host_email, variant=variant, options=options,
                policies=policies, is_demo=is_demo, language=language,
            )
            return game.public_id

    def create_game_in(
        self,
        session: Session,
        *,
        title: str,
        players: Sequence[PlayerSpec],
        host_email: str,
        variant: str = "base",
        options: dict[str, Any] | None = None,
        policies: dict[str, Any] | None = None,
        is_demo: bool = False,
        language: str | None = None,
    ) -> Game:
        """`create_game` in the caller's transaction (a use case that does more in the same unit of work): the new
        game with its seats, flushed; `language` is the one its seats read until they choose (None: the server's).
        Bad input raises ValidationError before anything is written."""
        title = clean_line("title", title, MAX_TITLE)
        language = game_language(language)
        host_email = clean_email("host email", host_email)
        seats = [_clean_player(index, player) for index, player in enumerate(players)]
        lowered = [seat.name.casefold() for seat in seats]
        if len(set(lowered)) != len(lowered):
            raise ValidationError(gettext("Every player needs a different name."))
        if options is not None and not isinstance(options, dict):
            raise ValidationError(gettext("Game options must be a table of settings."))
        game_policies = self._policies(policies or {})
        try:
            # The engine alone knows the rules (player counts, variants, options): ask it with a throwaway deal.
            engine.new_game([seat.name for seat in seats], seed=0, variant=variant, options=options)
        except ValueError as exc:
            raise ValidationError(engine_words(exc)) from None

        now = self._clock.now()
        game = Game(
            title=title,
            variant=variant,
            options=options or {},
            policies=game_policies,
            status=GameStatus.CREATED,
            paused=False,
            is_demo=is_demo,
            host_email=host_email,
            language=language,
            host_plays=any(seat.email is not None and same_mailbox(seat.email, host_email) for seat in seats),
            created_at=now,
            updated_at=now,
        )
        game.seats = [
            Seat(seat_index=index, display_name=seat.name, email=seat.email, is_bot=seat.is_bot)
            for index, seat in enumerate(seats)
        ]
        session.add(game)
        session.flush()
        self._log_host_action(
            session, game, host_email, "create_game", {"title": title, "variant": variant, "players": game.names}
        )
        return game

    def start_game(self, game_id: str, *, actor_email: str | None = None) -> None:
        """Deal round 1 from a fresh secret seed, record snapshot 0 and email every player their link."""
        with self._db.write() as session:
            self.start_game_in(session, lock_game(session, game_id), actor_email=actor_email)

    def start_game_in(self, session: Session, game: Game, *, actor_email: str | None = None) -> None:
        """`start_game` in the caller's transaction, which holds the game locked (`lock_game`) or created it."""
        if game.status != GameStatus.CREATED:
            raise GameAlreadyStarted()
        try:
            state = engine.new_game(
                game.names, seed=self.chance.seed(), variant=game.variant, options=game.options or None
            )
        except ValueError as exc:
            raise ValidationError(engine_words(exc)) from None
        game.status = GameStatus.ACTIVE
        self._append_snapshot(
            session, game, state, move=None, events=[], actor=None, submission_id=None, source=SERVER
        )
        self._log_host_action(session, game, actor_email or game.host_email, "start_game", {})
        self.mail.game_started(session, game, state)


    def _policies(self, overrides: dict[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(overrides) - set(self._default_policies))
        if unknown:
            raise ValidationError(gettext("Unknown game policy: %(names)s.", names=", ".join(unknown)))
        return {**self._default_policies, **overrides}


def _clean_player(index: int, player: PlayerSpec) -> PlayerSpec:
    name = clean_name(gettext("name of player %(number)d", number=index + 1), player.name, MAX_NAME)
    if player.is_bot:
        return PlayerSpec(name=name, email=None, is_bot=True)
    return PlayerSpec(name=name, email=clean_email(gettext("email of %(name)s", name=name), player.email))
