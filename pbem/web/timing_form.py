"""The quiet-hours and time-zone fields that the turn page's settings and "My games" preferences share.

A form shows the settings in force and carries what it showed (`was_*` fields), so a save changes only what
the player changed. Quiet hours are one of three choices: the game's own default, none, or the player's own.
"""

from __future__ import annotations

from collections.abc import Mapping

from pbem.errors import ValidationError
from pbem.i18n import gettext

GAME_DEFAULT, NO_QUIET_HOURS, OWN_HOURS = "game", "none", "own"


def quiet_choice(quiet_hours: str | None) -> str:
    """Which of the three choices a stored value is (None: the game's default, "": none)."""
    if quiet_hours is None:
        return GAME_DEFAULT
    return OWN_HOURS if quiet_hours else NO_QUIET_HOURS


def quiet_hours_from(form: Mapping[str, str]) -> str | None:
    """The quiet hours a form asks for: None for the game's default, "" for none, else the hours written.

    Hours typed into the field mean the player's own, even when the radio button was left where it was."""
    choice = form.get("quiet", "")
    written = form.get("quiet_hours", "").strip()
    if written.lower() == NO_QUIET_HOURS:
        return ""
    if not choice and not written:  # a form with the one field only: empty is the game's default
        return None
    if written and written != form.get("was_quiet_hours", "").strip():
        choice = OWN_HOURS
    if choice == GAME_DEFAULT:
        return None
    if choice == NO_QUIET_HOURS:
        return ""
    if choice == OWN_HOURS:
        if not written:
            raise ValidationError(gettext("Write your quiet hours like 22:00-08:00, or choose another option."))
        return written
    raise ValidationError(gettext("Choose the game's quiet hours, none, or your own."))


def shown_quiet_hours(form: Mapping[str, str]) -> str | None:
    """The quiet hours the form showed when it was opened (the same three meanings)."""
    choice = form.get("was_quiet", "")
    if choice == GAME_DEFAULT:
        return None
    if choice == NO_QUIET_HOURS:
        return ""
    return form.get("was_quiet_hours", "").strip()


def changed(form: Mapping[str, str], was_key: str, value: str | None, shown: str | None) -> bool:
    """Whether the player changed a field: a form without `was_key` (a page opened before) changes it."""
    return was_key not in form or value != shown


def timing_saved(zone_name: str | None, quiet: str | None, quiet_changed: bool) -> str:
    """The notice after a save, naming what changed."""
    if quiet_changed:
        if quiet is None:
            hours = gettext("quiet hours as the game sets them")
        elif quiet == "":
            hours = gettext("no quiet hours")
        else:
            hours = gettext("quiet hours %(hours)s", hours=quiet)
        if zone_name:
            return gettext("Saved: %(hours)s and time zone %(zone)s. Your current deadline never moves earlier for it.",
                           hours=hours, zone=zone_name)
        return gettext("Saved: %(hours)s. Your current deadline never moves earlier for it.", hours=hours)
    if zone_name:
        return gettext("Saved: time zone %(zone)s. Your current deadline never moves earlier for it.", zone=zone_name)
    return gettext("Nothing to save: your quiet hours and time zone are as they were.")
