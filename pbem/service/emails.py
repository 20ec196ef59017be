"""Every email the server sends, one entry a kind: when it goes, its subject, its templates and what makes two of
them the same (the dedupe key). Whoever queues an email names its entry here; nothing else writes a subject.

A game's emails to its people keep the game's one subject (`pbem.mail.outbox.game_subject`), so that every client
keeps the game in one conversation; what each wants shows in its sender's name (`pbem.mail.message.SENDER_LABELS`).
An email about no game, or outside its conversation, has a subject of its own, which says what it is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from babel.support import LazyProxy

from pbem.i18n import gettext, ngettext
from pbem.mail.outbox import game_subject
from pbem.models import Game

APP_NAME = "Saboteur"


@dataclass(frozen=True)
class Letter:
    """An email of a game's conversation: its subject is the game's."""

    kind: str  # as the outbox row stores it
    sent_when: str

    @property
    def templates(self) -> tuple[str, str]:
        """The text part's template and the HTML part's, under templates/."""
        return f"email/{self.kind}.txt", f"email/{self.kind}.html"

    def key(self, *parts: object) -> str:
        """The dedupe key of the email these parts describe: one is queued, whoever asks twice."""
        return ":".join([self.kind, *(str(part) for part in parts)])


@dataclass(frozen=True)
class OwnLetter(Letter):
    """An email with a subject of its own, made from the words it is given."""

    words: Callable[..., str]  # the subject in the language being written in

    def subject(self, *words: object) -> LazyProxy:
        """The subject, written when the email is (pbem/mail/outbox.py): in its recipient's language, whoever
        queued it in whichever language."""
        return LazyProxy(self.words, *words, enable_cache=False)


def _own(words: str) -> str:
    return f"{words} - {APP_NAME}"


def _daily_subject(games_to_play: int) -> str:
    if games_to_play:
        return _own(ngettext("Your turn in %(num)d game", "Your turn in %(num)d games", games_to_play))
    return _own(gettext("News from your games"))


def _bounce_subject(game: Game) -> str:
    return gettext("Not posted: your reply - %(subject)s", subject=game_subject(game))


# -- a game's conversation, to its people ----------------------------------------------------------------

GAME_STARTED = Letter("game_started", "the game starts: each person's role, hand and link")
YOUR_TURN = Letter("your_turn", "a seat is to act (composed when it is sent)")
TURN_REMINDER = Letter("turn_reminder", "the reminder ladder, while a seat has not acted")
NUDGE = Letter("nudge", "the host nudges the seat to act")
DEADLINE_WARNING = Letter("deadline_warning", "the pending turn's deadline is near")
DEADLINE_PASSED = Letter("deadline_passed", "the deadline passed and the game moved on for the seat")
ROUND_DIGEST = Letter("round_digest", "a round ends: roles and payouts revealed")
GAME_OVER = Letter("game_over", "the game ends by its rules")
GAME_CLOSED = Letter("game_closed", "the host ends or abandons the game")
ROLLED_BACK = Letter("rolled_back", "the host rolls the game back")
DAILY_DIGEST = Letter("daily_digest", "a seat on the daily email: its game's day")
CHAT_MESSAGES = Letter("chat_messages", "table talk a seat has not read")
HANDOVER = Letter("handover", "a newcomer takes over a seat: what the seat knows")
SEAT_LINK = Letter("seat_link", "the host resends or rotates a seat's link")
FRESH_LINK = Letter("fresh_link", "a player with an expired link asks for a fresh one")
ADDRESS_CHANGE = Letter("address_change", "the host corrects a seat's address: the old one confirms")

# -- a game's conversation, to its host ------------------------------------------------------------------

HOST_PLAYER_STALLING = Letter("host_player_stalling", "a seat keeps letting its turns time out")
HOST_SEAT_ABSENT = Letter("host_seat_absent", "a seat is marked absent")
HOST_MOVE_REFUSED = Letter("host_move_refused", "a computer player's move was refused")
HOST_MAIL_FAILING = Letter("host_mail_failing", "mail to a seat keeps failing")
HOST_CHANNEL_OFF = Letter("host_channel_off", "the table's channel kept failing and was switched off")

# -- a subject of its own --------------------------------------------------------------------------------

HOST_LINK = OwnLetter("host_link", "someone asks to sign in on the host pages",
                     lambda: _own(gettext("Your host link")))
PLAYER_SIGN_IN = OwnLetter("player_sign_in", "someone asks to sign in to My games",
                        lambda: _own(gettext("Your sign-in link to My games")))
PLAYER_DAILY = OwnLetter("player_daily", "a person on the daily email across their games", _daily_subject)
JOIN_CONFIRM = OwnLetter("join_confirm", "someone joins by an invite link",
                      lambda title: _own(gettext("Confirm your place in %(title)s", title=title)))
SPECTATOR_CONFIRM = OwnLetter("spectator_confirm", "a spectator asks for round-end emails",
                           lambda title: _own(gettext("Confirm round-end emails for %(title)s", title=title)))
SPECTATOR_ROUND_END = OwnLetter(
    "spectator_round_end", "a round ends, to a spectator who asked",
    lambda round_number, title: _own(gettext("Round %(round)s of %(title)s is over", round=round_number, title=title)),
)
SEAT_REPLACED = OwnLetter("seat_replaced", "the host gives a seat to someone else: to its former player",
                       lambda title: _own(gettext("Your seat in %(title)s", title=title)))
NOTIFICATIONS_OFF = OwnLetter("notifications_off", "a player's notification address kept failing and was switched off",
                              lambda: _own(gettext("Notifications switched off")))
REPLY_BOUNCE = OwnLetter("reply_bounce", "a reply by email could not be posted to the table talk", _bounce_subject)

LETTERS: dict[str, Letter] = {letter.kind: letter for letter in (
    GAME_STARTED, YOUR_TURN, TURN_REMINDER, NUDGE, DEADLINE_WARNING, DEADLINE_PASSED, ROUND_DIGEST, GAME_OVER,
    GAME_CLOSED, ROLLED_BACK, DAILY_DIGEST, CHAT_MESSAGES, HANDOVER, SEAT_LINK, FRESH_LINK, ADDRESS_CHANGE,
    HOST_PLAYER_STALLING, HOST_SEAT_ABSENT, HOST_MOVE_REFUSED, HOST_MAIL_FAILING, HOST_CHANNEL_OFF,
    HOST_LINK, PLAYER_SIGN_IN, PLAYER_DAILY, JOIN_CONFIRM, SPECTATOR_CONFIRM, SPECTATOR_ROUND_END, SEAT_REPLACED,
    REPLY_BOUNCE, NOTIFICATIONS_OFF,
)}
