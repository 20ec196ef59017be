"""Which language each seat reads: the one it chose, else its browser's, else its game's (pbem/i18n/).

A seat's own choice (the turn page's settings, My games for all games, or the join form before the game started)
wins for good. Until it makes one, the browser that the page's script reports a visit from (a POST, never a GET:
mail scanners open links too) lends its first supported language, and a later visit from another browser may lend
another; a request that names none we speak changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from pbem.addresses import mailbox_key
from pbem.db import Database
from pbem.errors import ValidationError
from pbem.i18n import gettext
from pbem.i18n.languages import reading_language, supported
from pbem.models import Game, Invite, Joiner
from pbem.service.players.preferences import checked_language, chosen_language, language_names
from pbem.service.rows import find_game, require_seat


@dataclass(frozen=True)
class SeatLanguages:
    """What a seat's language is made of, for the page (which may add this request's browser) and its emails."""

    chosen: str | None
    browser: str | None
    game: str | None

    def reading(self, server: str, *, browser_now: str | None = None) -> str:
        """The language the seat reads: its choice, else `browser_now` (this request's), its browser's, its game's,
        else the server's."""
        return reading_language(self.chosen, browser_now, self.browser, self.game, server)


def game_language(code: str | None) -> str | None:
    """A game's language as the host gave it ("" or None: the server's); ValidationError for one we do not speak."""
    if not code:
        return None
    found = supported(code)
    if found is None or found != code:
        raise ValidationError(gettext("Choose the game's language: %(languages)s.", languages=language_names()))
    return found


class SeatLanguageService:
    def __init__(self, db: Database) -> None:
        self._db = db

    def of(self, game_id: str, seat: int) -> SeatLanguages:
        """The seat's languages (the same lookup of the game and its seats a seat's request makes anyway)."""
        with self._db.read() as session:
            game = find_game(session, game_id)
            require_seat(game, seat)
            return languages_of(game, seat)

    def choose(self, game_id: str, seat: int, code: str) -> str:
        """The seat's own choice, for its pages and its emails from now on."""
        language = checked_language(code)
        with self._db.write() as session:
            game = find_game(session, game_id)
            require_seat(game, seat)
            game.seats[seat].language = language
        return language

    def joiner_chose(self, invite_id: str, email: str, code: str | None) -> None:
        """The language a person picked on the join form, kept with their place on the invite's list: their seat's
        when the game starts (pbem/service/players/preferences.py). None, or no such place: nothing changes."""
        language = chosen_language(code)
        if language is None:
            return
        with self._db.write() as session:
            joiner = session.scalar(select(Joiner).join(Invite).where(
                Invite.public_id == invite_id, Joiner.mailbox == mailbox_key(email.strip()),
            ))
            if joiner is not None:
                joiner.language = language

    def lend_browser(self, game_id: str, seat: int, language: str | None) -> None:
        """A visit from a browser reading `language` (None: it names none we speak, and nothing changes): until the
        seat chooses, that is the seat's language."""
        language = supported(language)
        if language is None:
            return
        with self._db.read() as session:
            game = find_game(session, game_id)
            require_seat(game, seat)
            own = game.seats[seat]
            if own.language is not None or own.browser_language == language:
                return
        with self._db.write() as session:
            game = find_game(session, game_id)
            own = game.seats[seat]
            if own.language is None:
                own.browser_language = language


def languages_of(game: Game, seat_index: int) -> SeatLanguages:
    """A seat's languages from its game's row, already read (a move's locked row)."""
    own = game.seats[seat_index]
    return SeatLanguages(own.language, own.browser_language, game.language)
