"""Email addresses: the one rule for what an address may be (`address_mistake`), when two are the same address
(`address_key`) or reach the same mailbox (`mailbox_key`), and the operator's reply mailbox checked."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

Say = Callable[..., str]  # a message and its named values, in the reader's words


def N_(message: str) -> str:
    """Marks a message for the catalogue (`make messages`); translated by the caller's `say`."""
    return message


def _as_written(message: str, **values: object) -> str:
    return message % values if values else message

MAX_ADDRESS_LENGTH = 320  # 64 for the local part, @, 255 for the domain
# Characters no address here may hold: what a mail header could be split on, and what the sign-in form's
# plain address never needs.
NOT_IN_ADDRESS = frozenset('<>"(),;:[]\\')

# The length of a reply token (pbem/mail/reply_address.py); "<local>+<token>" must fit in the 64 characters
# of an address's local part.
REPLY_TOKEN_LENGTH = 29
MAX_LOCAL_LENGTH = 64 - 1 - REPLY_TOKEN_LENGTH


def address_key(address: str) -> str:
    """Two spellings of one address compare equal: `Ann@Example.org ` is `ann@example.org`."""
    return address.strip().casefold()


def mailbox_key(address: str) -> str:
    """The mailbox an address reaches: case folded and a `+tag` dropped, so `Ann+x@Example.org` is `ann@example.org`.

    Used wherever one person must not count as several (a playing host's other addresses, limits per address).
    """
    local, at, domain = address.strip().rpartition("@")
    if not at:
        return address_key(address)
    return address_key(f"{local.split('+', 1)[0]}@{domain}")


def same_mailbox(first: str, second: str) -> bool:
    return mailbox_key(first) == mailbox_key(second)


def split_reply_address(address: str) -> tuple[str, str]:
    """`local@domain` of the operator's reply mailbox; ValueError if it cannot carry tokens."""
    local, at, domain = address.strip().rpartition("@")
    if not at or not local or not domain or any(c.isspace() or c in '<>"(),;' for c in address.strip()):
        raise ValueError(f"not a plain email address: {address!r}")
    if "+" in local:
        raise ValueError(f"the local part may not contain '+' (the server adds '+<token>' itself): {address!r}")
    if len(local) > MAX_LOCAL_LENGTH:
        raise ValueError(f"the local part may have at most {MAX_LOCAL_LENGTH} characters: {address!r}")
    return local, domain


def address_mistake(address: str, say: Say | None = None) -> str | None:
    """What is wrong with an address a person typed, in words ("the part after @ needs a dot"); None if nothing.
    `say` translates the words into the reader's language (`pbem.i18n.gettext`: this module is below it); else
    they are English, as the configuration's checks print them.

    The domain needs a dot, except `localhost` (mail that stays on this machine, as the demo's does)."""
    say = say or _as_written
    text = address.strip()
    if not text:
        return say(N_("An email address is needed."))
    if len(text) > MAX_ADDRESS_LENGTH:
        return say(N_("This address is too long to be an email address."))
    if any(character.isspace() for character in text):
        return say(N_("An email address has no spaces."))
    if any(character in NOT_IN_ADDRESS or _hidden(character) for character in text):
        return say(N_("An email address has only letters, digits and . _ - + @ in it."))
    local, at, domain = text.rpartition("@")
    if not at:
        return say(N_("An email address has an @ in it, like name@example.org."))
    if not local:
        return say(N_("Something is missing before the @."))
    if "@" in local:
        return say(N_("An email address has only one @."))
    if not domain:
        return say(N_("Something is missing after the @."))
    if "." not in domain.strip(".") and domain.casefold() != "localhost":
        return say(N_("The part after the @ needs a dot, like %(domain)s.org or gmail.com."),
                   domain=domain or "example")
    if domain.startswith(".") or domain.endswith(".") or ".." in domain:
        return say(N_("The part after the @ has a misplaced dot."))
    return None


def _hidden(character: str) -> bool:
    """A control character, or an invisible one such as those that turn the text around them (an address that
    seems to be another)."""
    return unicodedata.category(character) in ("Cc", "Cf", "Cs")
