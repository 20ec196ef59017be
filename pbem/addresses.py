"""Email addresses compared as the mailbox they reach."""

from __future__ import annotations


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
