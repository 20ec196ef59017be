"""Times and durations as people read them, on pages and in emails alike, in the reader's own time zone and
language.

English keeps the server's own short forms ("Thu 8 Jan, 09:00 UTC"); another language takes its locale's from
Babel ("Sa., 5. Dez., 08:00", "12월 5일 (토) 오전 8:00"), and its durations from the catalogue ("in 2 Tagen und
3 Stunden"). `now` always comes from the injected clock, so the words are the same on every run of a test.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel.dates import format_date, format_skeleton, format_time

from pbem.i18n import current_language, current_locale, gettext, npgettext, pgettext


def zone(name: str | None) -> ZoneInfo:
    """The named time zone; UTC for an empty or unknown name (a typo must not stop the mail)."""
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def _in_locale(local: datetime, skeleton: str) -> str:
    """The day in the reader's locale ("Sa., 5. Dez.", "12월 5일 (토)"), then its time ("08:00", "오전 8:00")."""
    locale = current_locale()
    day = format_skeleton(skeleton, local, tzinfo=local.tzinfo, locale=locale)
    return f"{day} {format_time(local, 'short', tzinfo=local.tzinfo, locale=locale)}"


def format_when(moment: datetime, zone_name: str | None = None) -> str:
    """E.g. "Thu 8 Jan 2026, 09:00 UTC", unambiguous across countries (no 08/01 against 01/08)."""
    local = moment.astimezone(zone(zone_name))
    if current_language() != "en":
        return f"{_in_locale(local, 'yMMMEd')} {local.tzname()}"
    return f"{local:%a} {local.day} {local:%b %Y, %H:%M} {local.tzname()}"


def local_time(moment: datetime, zone_name: str | None = None) -> str:
    """E.g. "Mon 5 Jan, 09:00 UTC": the day matters in games that last days; the zone says whose clock it is."""
    here = moment.astimezone(zone(zone_name))
    if current_language() != "en":
        return f"{_in_locale(here, 'MMMEd')} {here.tzname()}"
    return f"{here:%a} {here.day} {here:%b}, {here:%H:%M} {here.tzname()}"


MINUTES_IN = {"day": 24 * 60, "hour": 60, "minute": 1}
UNITS = tuple(MINUTES_IN)


# "3 days" as the sentence needs it: on its own ("duration"), after "in" or before "ago" (German says "in 3 Tagen",
# "vor 3 Tagen", but "3 Tage"). Each message written out, so that the catalogue finds every one.
_COUNTS: dict[tuple[str, str], Callable[[int], str]] = {
    ("duration", "day"): lambda n: npgettext("duration", "%(num)d day", "%(num)d days", n),
    ("duration", "hour"): lambda n: npgettext("duration", "%(num)d hour", "%(num)d hours", n),
    ("duration", "minute"): lambda n: npgettext("duration", "%(num)d minute", "%(num)d minutes", n),
    ("in", "day"): lambda n: npgettext("in", "%(num)d day", "%(num)d days", n),
    ("in", "hour"): lambda n: npgettext("in", "%(num)d hour", "%(num)d hours", n),
    ("in", "minute"): lambda n: npgettext("in", "%(num)d minute", "%(num)d minutes", n),
    ("ago", "day"): lambda n: npgettext("ago", "%(num)d day", "%(num)d days", n),
    ("ago", "hour"): lambda n: npgettext("ago", "%(num)d hour", "%(num)d hours", n),
    ("ago", "minute"): lambda n: npgettext("ago", "%(num)d minute", "%(num)d minutes", n),
}
_LESS_THAN_A_MINUTE: dict[str, Callable[[], str]] = {
    "duration": lambda: pgettext("duration", "less than a minute"),
    "in": lambda: pgettext("in", "less than a minute"),
    "ago": lambda: pgettext("ago", "less than a minute"),
}


def _count(number: int, unit: str, form: str) -> str:
    return _COUNTS[form, unit](number)


def format_duration(delta: timedelta, form: str = "duration") -> str:
    """The largest unit and the next one, rounded down: "2 days and 3 hours", "3 days", "45 minutes"."""
    minutes = max(int(delta.total_seconds() // 60), 0)
    for index, unit in enumerate(UNITS):
        if minutes >= MINUTES_IN[unit]:
            larger = _count(minutes // MINUTES_IN[unit], unit, form)
            if index + 1 < len(UNITS):
                smaller = UNITS[index + 1]
                rest = (minutes % MINUTES_IN[unit]) // MINUTES_IN[smaller]
                if rest:
                    return gettext("%(larger)s and %(smaller)s", larger=larger,
                                   smaller=_count(rest, smaller, form))
            return larger
    return _LESS_THAN_A_MINUTE[form]()


def ago(moment: datetime, now: datetime) -> str:
    """E.g. "5 hours ago"; "just now" within a minute."""
    if now - moment >= timedelta(minutes=1):
        return gettext("%(duration)s ago", duration=format_duration(now - moment, "ago"))
    return gettext("just now")


def until(moment: datetime, now: datetime) -> str:
    """E.g. "in 2 days and 3 hours"; "passed" once the moment is behind us."""
    if moment > now:
        return gettext("in %(duration)s", duration=format_duration(moment - now, "in"))
    return pgettext("moment", "passed")


def since_day(moment: datetime, now: datetime, zone_name: str | None = None) -> str:
    """When something began, as a word for a short line: "09:00" (today), "yesterday", "Tuesday" (this week),
    "4 Dec" (before that), on the clock of the zone."""
    here, today = moment.astimezone(zone(zone_name)), now.astimezone(zone(zone_name)).date()
    days = (today - here.date()).days
    english = current_language() == "en"
    if days <= 0:
        return f"{here:%H:%M}" if english else format_time(here, "short", tzinfo=here.tzinfo, locale=current_locale())
    if days == 1:
        return gettext("yesterday")
    if days < 7:
        return f"{here:%A}" if english else format_date(here, "EEEE", locale=current_locale())
    return f"{here.day} {here:%b}" if english else format_skeleton("MMMd", here, tzinfo=here.tzinfo,
                                                                     locale=current_locale())


def machine_time(moment: datetime) -> str:
    """E.g. "2026-01-05T09:00:00+00:00": the moment for a program to read (HTML's `datetime` attribute, a script),
    to the second, since that attribute takes at most three digits of a second."""
    return moment.isoformat(timespec="seconds")


def format_moment(moment: datetime, zone_name: str | None = None) -> str:
    """E.g. "Thu 8 Jan, 09:00": short, for a list of recent lines whose heading names the time zone."""
    local = moment.astimezone(zone(zone_name))
    if current_language() != "en":
        return _in_locale(local, "MMMEd")
    return f"{local:%a} {local.day} {local:%b, %H:%M}"
