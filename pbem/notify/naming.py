"""How a table's players are told it has a channel: the kind of place it posts to, named from the URL's scheme
alone (the masked `shown_as` is enough), never its address, server or token."""

from __future__ import annotations

from pbem.notify.safety import scheme_of

# Apprise's schemes (pbem.config.DEFAULT_NOTIFICATION_SCHEMES and a few more an operator may allow), in words.
PLACES = {
    "discord": "a Discord channel",
    "matrix": "a Matrix room",
    "ntfy": "an ntfy topic",
    "tgram": "a Telegram chat",
    "slack": "a Slack channel",
    "pover": "Pushover",
    "gotify": "a Gotify server",
    "signal": "a Signal chat",
    "mmost": "a Mattermost channel",
    "rocket": "a Rocket.Chat channel",
    "msteams": "a Microsoft Teams channel",
    "zulip": "a Zulip stream",
    "json": "a webhook",
    "xml": "a webhook",
    "form": "a webhook",
}


def place_of(shown_as: str) -> str:
    """ "discord://discord.com/…x9" -> "a Discord channel"; a scheme not named here -> "a chat channel"."""
    scheme = scheme_of(shown_as)
    base = scheme[:-1] if scheme.endswith("s") and scheme[:-1] in PLACES else scheme
    return PLACES.get(base, "a chat channel")
