"""What a notification says: the emails' own words (each kind's subject and inbox line, its `preheader` block,
rendered from the same template), from public facts only, plus "your turn" to the owner of an address; and a link
to the table page (which opens for the seat's own signed-in browser) or to My games' sign-in. Never a seat link or
any other signed token: a chat channel or an ntfy topic is read by others."""

from __future__ import annotations

from typing import Any

from pbem.mail.outbox import email_templates, game_subject
from pbem.models import Game
from pbem.notify.transport import Notification
from pbem.service.emails import GAME_OVER, ROUND_DIGEST, YOUR_TURN, Letter


def inbox_line(letter: Letter, context: dict[str, Any]) -> str:
    """The email's inbox line for this context: its text template's `preheader` block, on one line."""
    template = email_templates().get_template(letter.templates[0])
    block = template.blocks["preheader"]
    return " ".join("".join(block(template.new_context(context))).split())


def table_url(base_url: str, game: Game) -> str:
    """The table page by the game's public id: it opens for a browser signed in as a seat, else asks to sign in."""
    return f"{base_url}/table/{game.public_id}"


def _notice(game: Game, line: str, base_url: str) -> Notification:
    return Notification(title=game_subject(game), body=f"{line}\n{table_url(base_url, game)}")


def your_turn(game: Game, round_number: int, deadline: str | None, base_url: str) -> Notification:
    """To the owner of an address: the turn email's inbox line ("Your turn: play by Thu 8 Jan, 09:00 UTC")."""
    line = inbox_line(YOUR_TURN, {"gold_pick": False, "steal": False, "deadline": deadline, "round": round_number})
    return _notice(game, line, base_url)


def reminder(game: Game, letter: Letter, context: dict[str, Any], base_url: str) -> Notification:
    """To the owner of an address: a reminder's inbox line, from the reminder email's own context ("Reminder: your
    turn since Monday", "The host nudges you: ...", "Time is nearly up: 2 hours left for your turn")."""
    return _notice(game, inbox_line(letter, context), base_url)


def whose_turn(game: Game, name: str, base_url: str) -> Notification:
    """To the game's channel: whose turn it is, by name, as My games says it ("Ann's turn.")."""
    line = email_templates().from_string("{{ name }}'s turn.").render(name=name)
    return _notice(game, line, base_url)


def round_over(game: Game, round_number: int, headline: str, base_url: str) -> Notification:
    """The round digest's inbox line ("Round 2 is over: the saboteurs won"): public once the round has ended."""
    return _notice(game, inbox_line(ROUND_DIGEST, {"result": {"round": round_number}, "headline": headline}), base_url)


def game_over(game: Game, winners_named: str, base_url: str) -> Notification:
    """The game-over email's inbox line as anyone who did not win reads it ("Game over: Ann won")."""
    context = {"you_won": False, "winners": [winners_named], "winners_named": winners_named, "won_with": ""}
    return _notice(game, inbox_line(GAME_OVER, context), base_url)


def table_line(game: Game, line: str, base_url: str) -> Notification:
    """A line the table talk already shows every player ("The host paused the game.")."""
    return _notice(game, line, base_url)
