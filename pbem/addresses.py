"""Email addresses compared as the mailbox they reach, and the operator's reply mailbox checked."""

from __future__ import annotations

# The length of a reply token (pbem/mail/reply_address.py); "<local>+<token>" must fit in the 64 characters
# of an address's local part.
REPLY_TOKEN_LENGTH = 29
MAX_LOCAL_LENGTH = 64 - 1 - REPLY_TOKEN_LENGTH


def mailbox_key(address: str) -> str:
    """The mailbox an address reaches: case folded and a `+tag` dropped, so `Ann+x@Example.org` is `ann@example.org`.

    Used wherever one person must not count as several (a playing host's other addresses, limits per address).
    """
    local, at, domain = address.strip().rpartition("@")
    if not at:
        return address.strip().casefold()
    return f"{local.split('+', 1)[0]}@{domain}".casefold()


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


def address_mistake(address: str) -> str | None:
    """What is wrong with an address a person typed, in words ("the part after @ needs a dot"); None if nothing."""
    text = address.strip()
    if not text:
        return "An email address is needed."
    if len(text) > 320:
        return "This address is too long to be an email address."
    if any(character.isspace() for character in text):
        return "An email address has no spaces."
    if any(character in '<>"(),;:[]\\' for character in text):
        return "An email address has only letters, digits and . _ - + @ in it."
    local, at, domain = text.rpartition("@")
    if not at:
        return "An email address has an @ in it, like name@example.org."
    if not local:
        return "Something is missing before the @."
    if "@" in local:
        return "An email address has only one @."
    if not domain:
        return "Something is missing after the @."
    if "." not in domain.strip("."):
        return f"The part after the @ needs a dot, like {domain or 'example'}.org or gmail.com."
    if domain.startswith(".") or domain.endswith(".") or ".." in domain:
        return "The part after the @ has a misplaced dot."
    return None
