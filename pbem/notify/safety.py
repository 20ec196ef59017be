"""What makes a notification URL acceptable, and how one is shown back: in one place.

A URL is a secret (a webhook's token, a private ntfy topic): it is stored as given, never logged, exported or
archived, and shown back only as `masked` ("ntfy://ntfy.sh/…k3"). It is accepted when Apprise can read it, its
scheme is in `notifications.allowed_schemes`, and every address its host resolves to is public: no loopback,
private, link-local, multicast, reserved or unspecified address, unless `allow_private_addresses` (a test set-up,
an operator's own LAN service). The same address check runs again at the moment of each connection
(`transport.py`), so a name that resolves to something else later (DNS rebinding) is refused then.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import apprise

from pbem.config import NotificationsConfig

# getaddrinfo's shape, so tests and callers may pass the resolver they have.
Resolver = Callable[..., Sequence[tuple[Any, ...]]]
# Apprise's ntfy:// without a host, or naming the cloud service, goes to ntfy.sh.
NTFY_CLOUD_HOST = "ntfy.sh"
MAX_URL_LENGTH = 2000


class RefusedUrl(ValueError):
    """A URL this server will not notify: the message says why, in words for the form beside the field."""


@dataclass(frozen=True)
class UrlRules:
    allowed_schemes: tuple[str, ...]
    allow_private_addresses: bool
    timeout_seconds: float

    @classmethod
    def from_config(cls, config: NotificationsConfig) -> UrlRules:
        return cls(config.allowed_schemes, config.allow_private_addresses, float(config.timeout_seconds))


@dataclass(frozen=True)
class CheckedUrl:
    url: str
    scheme: str
    host: str
    port: int | None

    @property
    def masked(self) -> str:
        return masked(self.url, self.host)


def scheme_of(url: str) -> str:
    return url.partition("://")[0].lower() if "://" in url else ""


def masked(url: str, host: str) -> str:
    """The URL as a page may show it: its scheme, the server it goes to and only its last two characters
    ("ntfy://ntfy.sh/…k3"); the rest (tokens, topics, ids) never leaves the database."""
    tail = url.rstrip("/")[-2:] if len(url) > len(scheme_of(url)) + 3 + len(host) + 4 else ""
    return f"{scheme_of(url)}://{host}/…{tail}"


def plugin_for(url: str) -> Any:
    """Apprise's notifier for the URL (None: Apprise cannot read it), with redirects off."""
    return apprise.Apprise.instantiate(url, asset=apprise.AppriseAsset(http_redirects=False), suppress_exceptions=True)


def target_host(plugin: Any) -> tuple[str, int | None]:
    """The host and port the notifier will connect to."""
    if plugin.__class__.__name__ == "NotifyNtfy" and str(getattr(plugin, "mode", "")).endswith("cloud"):
        return NTFY_CLOUD_HOST, None
    fixed = getattr(type(plugin), "notify_url", None)
    if isinstance(fixed, str) and fixed.startswith(("http://", "https://")):
        # A service whose address Apprise fixes (Discord, Telegram, Pushover...): the URL's "host" is an id there.
        return fixed.partition("://")[2].split("/", 1)[0].split(":", 1)[0], None
    host = str(getattr(plugin, "host", None) or "").strip("[]")
    port = getattr(plugin, "port", None)
    return host, port if isinstance(port, int) else None


def refused_address(address: str) -> bool:
    """Whether connecting to this IP address could reach this machine, its network or no one in particular."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return not ip.is_global or ip.is_multicast or ip.is_reserved


def check_addresses(host: str, port: int | None, rules: UrlRules, resolve: Resolver = socket.getaddrinfo) -> list[str]:
    """Every address `host` resolves to, refused if any of them is not public (unless private ones are allowed)."""
    try:
        found = resolve(host, port or 443, 0, socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise RefusedUrl(f"The address {host} could not be found.") from None
    addresses = [str(info[4][0]) for info in found]
    if not addresses:
        raise RefusedUrl(f"The address {host} could not be found.")
    if not rules.allow_private_addresses and any(refused_address(address) for address in addresses):
        raise RefusedUrl(
            f"{host} is a private, local or reserved address: this server only notifies services on the internet."
        )
    return addresses


def check_url(url: str, rules: UrlRules, resolve: Resolver = socket.getaddrinfo) -> CheckedUrl:
    """The URL, checked: readable by Apprise, an allowed scheme, a public host. Raises RefusedUrl."""
    url = url.strip()
    if not url:
        raise RefusedUrl("Give a notification address, e.g. ntfy://ntfy.sh/your-topic.")
    if len(url) > MAX_URL_LENGTH or any(ch.isspace() or not ch.isprintable() for ch in url):
        raise RefusedUrl("That is not a notification address (too long, or with spaces in it).")
    scheme = scheme_of(url)
    if scheme not in rules.allowed_schemes:
        allowed = ", ".join(f"{name}://" for name in rules.allowed_schemes)
        raise RefusedUrl(f"{scheme + '://' if scheme else 'That address'} is not a kind this server sends to "
                         f"(it sends to {allowed}).")
    plugin = plugin_for(url)
    if plugin is None:
        raise RefusedUrl(f"That {scheme}:// address is incomplete or malformed.")
    host, port = target_host(plugin)
    if not host:
        raise RefusedUrl(f"That {scheme}:// address names no server.")
    check_addresses(host, port, rules, resolve)
    return CheckedUrl(url=url, scheme=scheme, host=host, port=port)
