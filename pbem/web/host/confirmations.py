"""What the host is asked before an action is carried out: one page, "Pause the game?" with a button that says
what it does and a way back. A host action's form posts without `confirm`; the answer is this question, whose
"yes" posts the same fields again with `confirm=yes`. Every action a host route takes has its question here, so
an action without one is not an action."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from pbem.service.host.hosting import GameDetail
from pbem.service.host.invite_views import InviteDetail
from pbem.words.counting import plural


@dataclass(frozen=True)
class Question:
    title: str  # "Pause the game?"
    detail: str  # what happens, in a sentence or two
    yes: str  # the button that does it: "Yes, pause the game"
    danger: bool = False  # it cannot be undone: the button is drawn as such


Form = Mapping[str, str]
GameQuestion = Callable[[GameDetail, Form], Question]


def _extend(detail: GameDetail, form: Form) -> Question:
    hours = form.get("hours", "").strip()
    later = f"{plural(int(hours), 'hour')} later" if hours.isascii() and hours.isdigit() and len(hours) < 6 else "later"
    return Question("Extend the deadline?", f"The turn's deadline moves {later}.", "Yes, extend the deadline")


def _to_act(detail: GameDetail) -> str:
    return detail.row.to_act or "the player to act"


def _rematch(detail: GameDetail, form: Form) -> Question:
    order = "seats shuffled" if form.get("order") == "shuffled" else "seats rotated by one"
    return Question("Start the rematch?", f"The same players, game and rules with a new deal ({order}); every player "
                    "is emailed their new link.", "Yes, start the rematch")


def _rematch_permission(detail: GameDetail, form: Form) -> Question:
    if form.get("allowed") == "yes":
        return Question("Let any player start the rematch?", "Any player may then start it from the game-over page.",
                        "Yes, let players start it")
    return Question("Only you start the rematch?", "Players can no longer start it from the game-over page.",
                    "Yes, only I start it")


GAME_QUESTIONS: dict[str, GameQuestion] = {
    "start": lambda detail, form: Question(
        "Start the game?", "The first round is dealt and every player is emailed their link.", "Yes, start the game"),
    "pause": lambda detail, form: Question(
        "Pause the game?", "No moves, reminders or deadlines until you resume it.", "Yes, pause the game"),
    "resume": lambda detail, form: Question(
        "Resume the game?", "Moves, reminders and the deadline go on where they stopped.", "Yes, resume the game"),
    "skip": lambda detail, form: Question(
        f"Skip {_to_act(detail)}'s turn?", f"{_to_act(detail)}'s turn is played now as if it had timed out.",
        "Yes, skip the turn"),
    "extend": _extend,
    "end": lambda detail, form: Question(
        "End the game now?", "The game ends with the standings as they are; it cannot go on afterwards.",
        "Yes, end the game", danger=True),
    "abandon": lambda detail, form: Question(
        "Abandon the game?", "The game stops for good and every player is told.",
        "Yes, abandon the game", danger=True),
    "rollback": lambda detail, form: Question(
        f"Roll back to turn {form.get('to', '')}?", "The game continues from a copy of that turn; nothing is erased, "
        "and the table reads your reason.", "Yes, roll back"),
    "rematch": _rematch,
    "rematch-permission": _rematch_permission,
    "reveal": lambda detail, form: Question(
        "Reveal every hand and role?", "Only for settling a dispute: the table is told, with your reason.",
        "Yes, reveal and tell the table", danger=True),
}


SeatQuestion = Callable[[str, Form], Question]


def _auto_pass(name: str, form: Form) -> Question:
    if form.get("on") == "yes":
        return Question(f"Pass for {name} at each turn?", f"Until {name} comes back, the game passes for them "
                        "without waiting.", "Yes, pass for them")
    return Question(f"Wait for {name} again?", f"{name}'s turns wait for them again, up to the deadline.",
                    "Yes, wait for them")


SEAT_QUESTIONS: dict[str, SeatQuestion] = {
    "replace": lambda name, form: Question(
        f"Hand {name}'s seat to {form.get('name', '').strip() or 'the new player'}?",
        "The new player is emailed what the seat knows and their link; the old links stop working and the table is "
        "told.", "Yes, replace the player"),
    "rotate": lambda name, form: Question(
        f"Send {name} a new link?", "Their old links stop working.", "Yes, send a new link"),
    "resend": lambda name, form: Question(
        f"Email {name} their link again?", "The link they have keeps working.", "Yes, email the link"),
    "email": lambda name, form: Question(
        f"Correct {name}'s email address?", "Their current address is asked to confirm the new one; nothing changes "
        "until it does.", "Yes, ask them to confirm"),
    "nudge": lambda name, form: Question(
        f"Remind {name} now?", "A reminder is emailed at once" + (", with your note" if form.get("note", "").strip()
                                                                  else "") + " (at most one an hour).",
        "Yes, send the reminder"),
    "auto-pass": _auto_pass,
}


def _start_from_invite(detail: InviteDetail, form: Form) -> Question:
    people = plural(len(detail.confirmed), "confirmed person", "confirmed people")
    bots = f" and {plural(detail.bots, 'computer player')}" if detail.bots else ""
    return Question("Start the game?", f"The game is dealt to {people}{bots}, and everyone is emailed their link.",
                    "Yes, start the game")


def _remove_joiner(detail: InviteDetail, form: Form) -> Question:
    joiner = next((j.name for j in detail.joiners if str(j.id) == form.get("joiner", "").strip()), "this person")
    return Question(f"Take {joiner} off the list?", "Their confirmation link stops working.", "Yes, take them off",
                    danger=True)


# The invite's actions that are asked about first (closing and reopening its link are undone as easily).
INVITE_QUESTIONS: dict[str, Callable[[InviteDetail, Form], Question]] = {
    "start": _start_from_invite,
    "remove": _remove_joiner,
}
