"""What a notification says: the emails' own words (each kind's subject and inbox line, its `preheader` block,
rendered from the same template), from public facts only, plus "your turn" to the owner of an address; and a link
to the table page (which opens for the seat's own signed-in browser) or to My games' sign-in. Never a seat link or
any other signed token: a chat channel or an ntfy topic is read by others.

Each is written in the language of whoever reads it (`language`): a player's own address in the seat's, the game's
channel in the game's, with the very words of that reader's email."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pbem.i18n import gettext, in_language
from pbem.mail.outbox import email_templates, game_subject
from pbem.models import Game
from pbem.notify.transport import Notification
from pbem.service.emails import GAME_OVER, ROUND_DIGEST, YOUR_TURN, Letter
from pbem.service.talk.system_lines import read_system_line

# A line the caller words (a pause, a replacement): the words themselves, or how to write them in the language
# that is current when the notification is written.
Line = str | Callable[[], str]


def inbox_line(letter: Letter, context: dict[str, Any]) -> str:
    """The email's inbox line for this context, in the current language: its text template's `preheader` block, on
    one line."""
    template = email_templates().get_template(letter.templates[0])
    block = template.blocks["preheader"]
    return " ".join("".join(block(template.new_context(context))).split())


def table_url(base_url: str, game: Game) -> str:
    """The table page by the game's public id: it opens for a browser signed in as a seat, else asks to sign in."""
    return f"{base_url}/table/{game.public_id}"


def _notice(game: Game, line: str, base_url: str) -> Notification:
    return Notification(title=game_subject(game), body=f"{line}\n{table_url(base_url, game)}")


def your_turn(
    game: Game, round_number: int, deadline: str | None, base_url: str, language: str
) -> Notification:
    """To the owner of an address: the turn email's inbox line ("Your turn: play by Thu 8 Jan, 09:00 UTC")."""
    with in_language(language):
        line = inbox_line(YOUR_TURN, {"gold_pick": False, "steal": False, "deadline": deadline,
                                      "round": round_number})
        return _notice(game, line, base_url)


def reminder(
    game: Game, letter: Letter, context: dict[str, Any], base_url: str, language: str
) -> Notification:
    """To the owner of an address: a reminder's inbox line, from the reminder email's own context ("Reminder: your
    turn since Monday", "The host nudges you: ...", "Time is nearly up: 2 hours left for your turn")."""
    with in_language(language):
        return _notice(game, inbox_line(letter, context), base_url)


def whose_turn(game: Game, name: str, base_url: str, language: str) -> Notification:
    """To the game's channel: whose turn it is, by name, as My games says it ("Ann's turn.")."""
    with in_language(language):
        return _notice(game, gettext("%(name)s's turn.", name=name), base_url)


def round_over(
    game: Game, round_number: int, headline: Line, base_url: str, language: str
) -> Notification:
    """The round digest's inbox line ("Round 2 is over: the saboteurs won"): public once the round has ended."""
    with in_language(language):
        said = headline() if callable(headline) else headline
        return _notice(game, inbox_line(ROUND_DIGEST, {"result": {"round": round_number}, "headline": said}),
                       base_url)


def game_over(game: Game, winners_named: Line, base_url: str, language: str) -> Notification:
    """The game-over email's inbox line as anyone who did not win reads it ("Game over: Ann won")."""
    with in_language(language):
        named = winners_named() if callable(winners_named) else winners_named
        context = {"you_won": False, "winners": [named], "winners_named": named, "won_with": ""}
        return _notice(game, inbox_line(GAME_OVER, context), base_url)


def table_line(game: Game, line: Line, base_url: str, language: str) -> Notification:
    """A line the table talk already shows every player ("The host paused the game.")."""
    with in_language(language):
        return _notice(game, line() if callable(line) else read_system_line(line), base_url)
