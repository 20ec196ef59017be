"""What the host is asked before an action is carried out: one page, "Pause the game?" with a button that says
what it does and a way back. A host action's form posts without `confirm`; the answer is this question, whose
"yes" posts the same fields again with `confirm=yes`. Every action a host route takes has its question here, so
an action without one is not an action."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from pbem.i18n import gettext, ngettext
from pbem.service.host.hosting import GameDetail
from pbem.service.host.invite_views import InviteDetail


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
    if hours.isascii() and hours.isdigit() and len(hours) < 6:
        moves = ngettext("The turn's deadline moves %(num)d hour later.", "The turn's deadline moves %(num)d hours "
                         "later.", int(hours))
    else:
        moves = gettext("The turn's deadline moves later.")
    return Question(gettext("Extend the deadline?"), moves, gettext("Yes, extend the deadline"))


def _to_act(detail: GameDetail) -> str:
    return detail.row.to_act or gettext("the player to act")


def _skip(detail: GameDetail, form: Form) -> Question:
    name = _to_act(detail)
    return Question(gettext("Skip %(name)s's turn?", name=name),
                    gettext("%(name)s's turn is played now as if it had timed out.", name=name),
                    gettext("Yes, skip the turn"))


def _rematch(detail: GameDetail, form: Form) -> Question:
    if form.get("order") == "shuffled":
        what = gettext("The same players, game and rules with a new deal (seats shuffled); every player is emailed "
                       "their new link.")
    else:
        what = gettext("The same players, game and rules with a new deal (seats rotated by one); every player is "
                       "emailed their new link.")
    return Question(gettext("Start the rematch?"), what, gettext("Yes, start the rematch"))


def _rematch_permission(detail: GameDetail, form: Form) -> Question:
    if form.get("allowed") == "yes":
        return Question(gettext("Let any player start the rematch?"),
                        gettext("Any player may then start it from the game-over page."),
                        gettext("Yes, let players start it"))
    return Question(gettext("Only you start the rematch?"),
                    gettext("Players can no longer start it from the game-over page."), gettext("Yes, only I start it"))


GAME_QUESTIONS: dict[str, GameQuestion] = {
    "start": lambda detail, form: Question(
        gettext("Start the game?"), gettext("The first round is dealt and every player is emailed their link."),
        gettext("Yes, start the game")),
    "pause": lambda detail, form: Question(
        gettext("Pause the game?"), gettext("No moves, reminders or deadlines until you resume it."),
        gettext("Yes, pause the game")),
    "resume": lambda detail, form: Question(
        gettext("Resume the game?"), gettext("Moves, reminders and the deadline go on where they stopped."),
        gettext("Yes, resume the game")),
    "skip": _skip,
    "extend": _extend,
    "end": lambda detail, form: Question(
        gettext("End the game now?"),
        gettext("The game ends with the standings as they are; it cannot go on afterwards."),
        gettext("Yes, end the game"), danger=True),
    "abandon": lambda detail, form: Question(
        gettext("Abandon the game?"), gettext("The game stops for good and every player is told."),
        gettext("Yes, abandon the game"), danger=True),
    "rollback": lambda detail, form: Question(
        gettext("Roll back to turn %(turn)s?", turn=form.get("to", "")),
        gettext("The game continues from a copy of that turn; nothing is erased, and the table reads your reason."),
        gettext("Yes, roll back")),
    "rematch": _rematch,
    "rematch-permission": _rematch_permission,
    "reveal": lambda detail, form: Question(
        gettext("Reveal every hand and role?"),
        gettext("Only for settling a dispute: the table is told, with your reason."),
        gettext("Yes, reveal and tell the table"), danger=True),
}


SeatQuestion = Callable[[str, Form], Question]


def _auto_pass(name: str, form: Form) -> Question:
    if form.get("on") == "yes":
        return Question(gettext("Pass for %(name)s at each turn?", name=name),
                        gettext("Until %(name)s comes back, the game passes for them without waiting.", name=name),
                        gettext("Yes, pass for them"))
    return Question(gettext("Wait for %(name)s again?", name=name),
                    gettext("%(name)s's turns wait for them again, up to the deadline.", name=name),
                    gettext("Yes, wait for them"))


def _replace(name: str, form: Form) -> Question:
    newcomer = form.get("name", "").strip()
    title = (gettext("Hand %(name)s's seat to %(newcomer)s?", name=name, newcomer=newcomer) if newcomer
             else gettext("Hand %(name)s's seat to the new player?", name=name))
    return Question(title, gettext("The new player is emailed what the seat knows and their link; the old links stop "
                                   "working and the table is told."), gettext("Yes, replace the player"))


def _nudge(name: str, form: Form) -> Question:
    if form.get("note", "").strip():
        what = gettext("A reminder is emailed at once, with your note (at most one an hour).")
    else:
        what = gettext("A reminder is emailed at once (at most one an hour).")
    return Question(gettext("Remind %(name)s now?", name=name), what, gettext("Yes, send the reminder"))


SEAT_QUESTIONS: dict[str, SeatQuestion] = {
    "replace": _replace,
    "rotate": lambda name, form: Question(
        gettext("Send %(name)s a new link?", name=name), gettext("Their old links stop working."),
        gettext("Yes, send a new link")),
    "resend": lambda name, form: Question(
        gettext("Email %(name)s their link again?", name=name), gettext("The link they have keeps working."),
        gettext("Yes, email the link")),
    "email": lambda name, form: Question(
        gettext("Correct %(name)s's email address?", name=name),
        gettext("Their current address is asked to confirm the new one; nothing changes until it does."),
        gettext("Yes, ask them to confirm")),
    "nudge": _nudge,
    "auto-pass": _auto_pass,
}


def _start_from_invite(detail: InviteDetail, form: Form) -> Question:
    people = len(detail.confirmed)
    if detail.bots:
        what = ngettext(
            "The game is dealt to %(num)d confirmed person and %(bots)s, and everyone is emailed their link.",
            "The game is dealt to %(num)d confirmed people and %(bots)s, and everyone is emailed their link.",
            people, bots=ngettext("%(num)d computer player", "%(num)d computer players", detail.bots),
        )
    else:
        what = ngettext("The game is dealt to %(num)d confirmed person, and everyone is emailed their link.",
                        "The game is dealt to %(num)d confirmed people, and everyone is emailed their link.", people)
    return Question(gettext("Start the game?"), what, gettext("Yes, start the game"))


def _remove_joiner(detail: InviteDetail, form: Form) -> Question:
    joiner = next((j.name for j in detail.joiners if str(j.id) == form.get("joiner", "").strip()), None)
    title = (gettext("Take %(name)s off the list?", name=joiner) if joiner is not None
             else gettext("Take this person off the list?"))
    return Question(title, gettext("Their confirmation link stops working."), gettext("Yes, take them off"),
                    danger=True)


# The invite's actions that are asked about first (closing and reopening its link are undone as easily).
INVITE_QUESTIONS: dict[str, Callable[[InviteDetail, Form], Question]] = {
    "start": _start_from_invite,
    "remove": _remove_joiner,
}
