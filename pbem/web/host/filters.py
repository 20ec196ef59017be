"""The host pages' times, in UTC: `when` (with how long ago), `local`, and `due` (with how long until); "-" for
none; and the words of a game's status and of a host action. Registered as template filters by the host
blueprint. Times and spans are `pbem/times.py`'s, in the reader's language."""

from __future__ import annotations

from datetime import datetime

from pbem.times import ago, local_time, until
from pbem.web.app_context import runtime
from pbem.words.table import N_, NP_, Words

# A game's status as the host's pages name it (pbem.models.GameStatus).
STATUS_WORDS = Words({
    "created": NP_("game status", "created"), "active": NP_("game status", "active"),
    "finished": NP_("game status", "finished"), "abandoned": NP_("game status", "abandoned"),
})
# What a host action was, in the host's audit list (the action's stored name, its underscores as spaces in English).
ACTION_WORDS = Words({
    "create_game": N_("create game"), "start_game": N_("start game"), "replace_player": N_("replace player"),
    "rotate_link": N_("rotate link"), "resend_link": N_("resend link"),
    "request_email_correction": N_("request email correction"), "correct_email": N_("correct email"),
    "rollback": NP_("host action", "rollback"), "end_game": N_("end game"), "abandon_game": N_("abandon game"),
    "reveal": NP_("host action", "reveal"), "rematch": NP_("host action", "rematch"),
    "pause": NP_("host action", "pause"), "resume": NP_("host action", "resume"),
    "extend_deadline": N_("extend deadline"), "nudge": NP_("host action", "nudge"),
    "skip": NP_("host action", "skip"), "auto_pass": N_("auto pass"), "spectator_link": N_("spectator link"),
    "spectator_link_revoked": N_("spectator link revoked"),
})


def status_word(status: str) -> str:
    return STATUS_WORDS[str(status)] if str(status) in STATUS_WORDS else str(status)


def action_word(action: str) -> str:
    return ACTION_WORDS[action] if action in ACTION_WORDS else action.replace("_", " ")


def when(moment: datetime | None) -> str:
    if moment is None:
        return "-"
    return f"{local_time(moment, 'UTC')} ({ago(moment, runtime().clock.now())})"


def local(moment: datetime | None) -> str:
    return "-" if moment is None else local_time(moment, "UTC")


def due(moment: datetime | None) -> str:
    if moment is None:
        return "-"
    return f"{local_time(moment, 'UTC')} ({until(moment, runtime().clock.now())})"
