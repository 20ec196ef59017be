"""The host pages' times, in UTC: `when` (with how long ago), `local`, and `due` (with how long until); "-" for
none; and the words of a game's status and of a host action. Registered as template filters by the host
blueprint.

English reads as `pbem/times.py` writes it; another language through Babel's calendar for the reader's locale
and whole messages for the spans ("vor 5 Stunden", "2일 3시간 후"), never English pieces glued together.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from babel.dates import format_skeleton, format_time

from pbem.i18n import current_language, current_locale, gettext, npgettext, pgettext
from pbem.times import UNITS, ago, local_time, until, zone
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
    if _english():
        return f"{local_time(moment, 'UTC')} ({ago(moment, runtime().clock.now())})"
    return f"{moment_words(moment)} ({ago_words(moment, runtime().clock.now())})"


def local(moment: datetime | None) -> str:
    if moment is None:
        return "-"
    return local_time(moment, "UTC") if _english() else moment_words(moment)


def due(moment: datetime | None) -> str:
    if moment is None:
        return "-"
    if _english():
        return f"{local_time(moment, 'UTC')} ({until(moment, runtime().clock.now())})"
    return f"{moment_words(moment)} ({until_words(moment, runtime().clock.now())})"


def moment_words(moment: datetime, zone_name: str | None = "UTC") -> str:
    """A moment as `pbem.times.local_time` says it ("Mon 5 Jan, 09:00 UTC"), in the reader's language:
    "Mo., 5. Jan., 09:00 UTC", "1월 5일 (월) 오전 9:00 UTC"."""
    if _english():
        return local_time(moment, zone_name)
    here = moment.astimezone(zone(zone_name))
    locale = current_locale()
    return pgettext(
        "date and time", "%(date)s, %(time)s %(zone)s", date=format_skeleton("MMMEd", here, locale=locale),
        time=format_time(here, "short", locale=locale), zone=here.tzname() or "",
    )


def ago_words(moment: datetime, now: datetime) -> str:
    if now - moment < timedelta(minutes=1):
        return gettext("just now")
    return gettext("%(span)s ago", span=span_words(now - moment))


def until_words(moment: datetime, now: datetime) -> str:
    if moment <= now:
        return pgettext("deadline", "passed")
    if moment - now < timedelta(minutes=1):
        return gettext("in less than a minute")
    return gettext("in %(span)s", span=span_words(moment - now))


def span_words(delta: timedelta) -> str:
    """The largest unit and the next one, rounded down, as `pbem.times.format_duration` counts them (at least a
    minute): "2 Tagen und 3 Stunden" (as "in ..." and "vor ..." take it), "2일 3시간"."""
    minutes = max(int(delta.total_seconds() // 60), 1)
    for index, (unit, size) in enumerate(UNITS):
        if minutes >= size:
            larger = _unit(unit, minutes // size)
            if index + 1 < len(UNITS):
                smaller_unit, smaller_size = UNITS[index + 1]
                rest = (minutes % size) // smaller_size
                if rest:
                    return pgettext("time span", "%(larger)s and %(smaller)s", larger=larger,
                                    smaller=_unit(smaller_unit, rest))
            return larger
    return _unit("minute", minutes)


def _unit(unit: str, count: int) -> str:
    if unit == "day":
        return npgettext("time span", "%(num)d day", "%(num)d days", count)
    if unit == "hour":
        return npgettext("time span", "%(num)d hour", "%(num)d hours", count)
    return npgettext("time span", "%(num)d minute", "%(num)d minutes", count)


def _english() -> bool:
    return current_language() == "en"
