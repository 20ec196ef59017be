"""Typed errors: each says what went wrong in words a player can read, and carries its HTTP status.

The service raises them before anything changes; the web layer turns them into a page or a JSON error
(`pbem/web/errors.py`), the CLI prints the message. A message given when raising is written in the reader's
language there (gettext inside the request); a class's default is marked for the catalogue (N_) and translated
when it is read, so the page says it in its reader's language and the command line in English. `str(error)`
stays English (the logs).
"""

from __future__ import annotations

from typing import ClassVar

from pbem.i18n import gettext
from pbem.seat_link import SeatLink


def N_(message: str) -> str:
    """Marks a default message for the catalogue; `PbemError.message` translates it when it is read."""
    return message


class PbemError(Exception):
    """Base of every error a user may see. `code` is a stable machine-readable name."""

    status: ClassVar[int] = 400
    code: ClassVar[str] = "error"
    default_message: ClassVar[str] = N_("Something about this request is not right.")

    def __init__(self, message: str | None = None) -> None:
        self._given = message or None
        super().__init__(message or self.default_message)

    @property
    def message(self) -> str:
        """What went wrong, in the language being written in now (English outside a request)."""
        return self._given or gettext(self.default_message)


class ValidationError(PbemError):
    status = 400
    code = "invalid_input"
    default_message = N_("The request is not valid.")


class CsrfFailed(PbemError):
    """A POST without the form's session-bound token: a stale tab after the cookie went, or another site."""

    status = 400
    code = "csrf_failed"
    default_message = N_("This form has expired, so nothing was done. Please look at the page again and retry.")


class RateLimited(PbemError):
    """Too many requests of one kind from one place; says nothing about the seat or link involved."""

    status = 429
    code = "rate_limited"
    default_message = N_("Too many requests from here. Please wait a while and try again.")


class DatabaseUnavailable(PbemError):
    """The database cannot be reached or written (restarting, unreachable, read-only, full): nothing was saved."""

    status = 503
    code = "database_unavailable"
    default_message = N_(
        "The game's database cannot be reached just now, so nothing was saved. Please try again in a minute: "
        "sending the same move again is safe, it is played once."
    )
    retry_after_seconds: ClassVar[int] = 30


class GameNotFound(PbemError):
    status = 404
    code = "game_not_found"
    default_message = N_("There is no such game.")


class SeatNotFound(PbemError):
    status = 404
    code = "seat_not_found"
    default_message = N_("There is no such seat in this game.")


class NotYourTurn(PbemError):
    """The engine's `NotYourTurn` as the server answers it: the seat's decision is not pending."""

    status = 409
    code = "not_your_turn"
    default_message = N_("It is not your turn.")


class StaleTurn(PbemError):
    status = 409
    code = "stale_turn"
    default_message = N_("The game has moved on since this page was loaded. Nothing was played; please look again.")


class GameFinished(PbemError):
    status = 409
    code = "game_finished"
    default_message = N_("This game is over.")


class GameNotStarted(PbemError):
    status = 409
    code = "game_not_started"
    default_message = N_("This game has not started yet.")


class GameAlreadyStarted(PbemError):
    status = 409
    code = "game_already_started"
    default_message = N_("This game has already started.")


class GamePaused(PbemError):
    status = 409
    code = "game_paused"
    default_message = N_("The host has paused this game. Nothing was played.")


class InvalidMove(PbemError):
    """Wraps the engine's `IllegalMove`, whose message already explains the rule."""

    status = 422
    code = "invalid_move"
    default_message = N_("That move is not allowed.")


class BadLink(PbemError):
    """Tampered, truncated or signed with a key we no longer hold. Says nothing about why."""

    status = 403
    code = "bad_link"
    default_message = N_("This link is no longer valid.")


class ExpiredLink(PbemError):
    """Authentic but too old; carries the seat so a fresh link can be sent to the address on file."""

    status = 410
    code = "expired_link"
    default_message = N_("This link is no longer valid.")

    def __init__(self, link: SeatLink, message: str | None = None) -> None:
        super().__init__(message)
        self.link = link


class RevokedLink(PbemError):
    """Authentic but its seat's token version has moved on (the host rotated the link or replaced the player)."""

    status = 410
    code = "revoked_link"
    default_message = N_("This link is no longer valid.")


class InviteUnavailable(PbemError):
    """A game's invite link that cannot take a player now: closed, replaced, expired, full or started."""

    status = 410
    code = "invite_unavailable"
    default_message = N_("This invite link does not take players any more. Ask the host for a new one.")


class RoundNotOver(PbemError):
    """A round's sealed deal and its private events are told only once it has ended."""

    status = 409
    code = "round_not_over"
    default_message = N_("That round is still being played: its deal stays sealed until it ends.")


class GameNotOver(PbemError):
    """Everything at once (the whole replay, the archive) is offered only once the game is over."""

    status = 409
    code = "game_not_over"
    default_message = N_("This is offered once the game is over.")


class NoPendingTurn(PbemError):
    """A turn control (nudge, skip, extend) needs a pending decision by a person, and there is none."""

    status = 409
    code = "no_pending_turn"
    default_message = N_("No player's decision is pending in this game right now.")


class MoveRefused(PbemError):
    """A move the server makes for a seat (a timeout, a skip) was refused by the rules or the database."""

    status = 409
    code = "move_refused"
    default_message = N_(
        "The game could not make this move for the seat, so nothing changed. You can roll the game back to an "
        "earlier turn of this round, or end it."
    )


class RollbackAcrossRound(PbemError):
    """A rollback may not undo a round's end or a deal: the ended round's roles and deck were shown to everyone."""

    status = 409
    code = "rollback_across_round"
    default_message = N_(
        "A game can only be rolled back within the round being played: when a round ends everyone sees its roles "
        "and its deck, and a new round's cards are already in the players' hands."
    )


class NudgeTooSoon(PbemError):
    """The host nudges a seat at most once an hour."""

    status = 429
    code = "nudge_too_soon"
    default_message = N_("This player was nudged less than an hour ago. Please give them a little time.")


class AlreadyPaused(PbemError):
    status = 409
    code = "already_paused"
    default_message = N_("This game is already paused.")


class NotPaused(PbemError):
    status = 409
    code = "not_paused"
    default_message = N_("This game is not paused.")


class NotSignedIn(PbemError):
    """The host's pages need a host session (from an emailed host link)."""

    status = 401
    code = "not_signed_in"
    default_message = N_("Please sign in as a host first: ask for a host link on the host page.")


class NotYourGame(PbemError):
    """A host acting on a game they do not host (admins host every game)."""

    status = 403
    code = "not_your_game"
    default_message = N_("You are not the host of this game.")


class NotAllowed(PbemError):
    """A host action the rules of hosting forbid (e.g. an emergency reveal by a host who plays in the game)."""

    status = 403
    code = "not_allowed"
    default_message = N_("This is not allowed here.")
