"""The one way a notification leaves this server.

Apprise reads every URL (`safety.plugin_for`). Its generic forms, `json://` and `ntfy://` (and their `s` forms),
are sent here by our own HTTP client (`http.client`), built from what Apprise read: the host is resolved once, every
address checked (`safety.check_addresses`), and the connection made to the checked address itself (TLS still checks
the host's name), so a name that resolves elsewhere between the check and the send (DNS rebinding) cannot move it;
a redirect is never followed (3xx is a failure), and the answer's status tells a retry (no answer, 5xx, 429) from a
refusal (4xx). Every other scheme goes through Apprise itself (`requests`), with its redirects off
(`AppriseAsset(http_redirects=False)`), our timeouts, and urllib3's connection function wrapped so that, while such a
send runs in this thread, each address it is about to connect to is checked first. Apprise says only whether a
notification went, so its failures are all treated as worth a retry.
"""

from __future__ import annotations

import contextvars
import http.client
import json
import socket
import ssl
from base64 import b64encode
from dataclasses import dataclass
from enum import Enum
from typing import Any
from urllib.parse import quote, urlencode

import urllib3.util.connection

from pbem.notify.safety import RefusedUrl, UrlRules, check_addresses, plugin_for, scheme_of, target_host

OWN_HTTP_SCHEMES = ("json", "jsons", "ntfy", "ntfys")
USER_AGENT = "Saboteur-PBEM"


class Outcome(Enum):
    SENT = "sent"
    RETRY = "retry"  # no answer, 5xx, 429, or an Apprise service that did not take it
    REFUSED = "refused"  # 4xx, a redirect, an address that is not allowed: trying again will not help


@dataclass(frozen=True)
class Result:
    outcome: Outcome
    # What went wrong, in words safe to store and show: never the URL.
    error: str = ""


@dataclass(frozen=True)
class Notification:
    title: str
    body: str


def send(url: str, notification: Notification, rules: UrlRules) -> Result:
    """Send one notification to one URL, checked again now; never raises for the receiver's faults."""
    plugin = plugin_for(url)
    if plugin is None or scheme_of(url) not in rules.allowed_schemes:
        return Result(Outcome.REFUSED, "the address is no longer accepted by this server")
    try:
        if scheme_of(url) in OWN_HTTP_SCHEMES:
            return _send_own(plugin, notification, rules)
        return _send_by_apprise(plugin, notification, rules)
    except RefusedUrl as exc:
        return Result(Outcome.REFUSED, str(exc))


# -- json:// and ntfy://: our own HTTP, to the checked address ------------------------------------------------------


def _send_own(plugin: Any, notification: Notification, rules: UrlRules) -> Result:
    host, port = target_host(plugin)
    secure = bool(getattr(plugin, "secure", True)) or plugin.__class__.__name__ == "NotifyNtfy" and port is None
    port = port or (443 if secure else 80)
    headers = {"User-Agent": USER_AGENT, "Content-Type": "application/json"}
    user, password = getattr(plugin, "user", None), getattr(plugin, "password", None)
    if user:
        headers["Authorization"] = "Basic " + b64encode(f"{user}:{password or ''}".encode()).decode()
    if plugin.__class__.__name__ == "NotifyNtfy":
        token = getattr(plugin, "token", None)
        if token:
            headers["Authorization"] = f"Bearer {token}"
        requests = [("POST", "/", {"topic": topic, "title": notification.title, "message": notification.body})
                    for topic in plugin.topics]
    else:
        headers.update(getattr(plugin, "headers", {}) or {})
        path = getattr(plugin, "fullpath", "") or "/"
        params = getattr(plugin, "params", {}) or {}
        if params:
            path += "?" + urlencode(params)
        payload: dict[str, Any] = {
            "version": "1.0", "title": notification.title, "message": notification.body, "attachments": [],
            "type": "info",
        }
        requests = [(str(getattr(plugin, "method", "POST")), path, payload)]
    addresses = check_addresses(host, port, rules)
    for method, path, payload in requests:
        result = _request(host, addresses[0], port, secure, method, path, headers, json.dumps(payload), rules)
        if result.outcome is not Outcome.SENT:
            return result
    return Result(Outcome.SENT)


class _PinnedHttp(http.client.HTTPConnection):
    """HTTP to `host` at an address already checked (the Host header still names the host)."""

    def __init__(self, host: str, address: str, port: int, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self._address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


class _PinnedHttps(http.client.HTTPSConnection):
    """HTTPS to `host` at an address already checked: the certificate must still be the host's."""

    def __init__(self, host: str, address: str, port: int, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self._address = address
        self._tls = ssl.create_default_context()

    def connect(self) -> None:
        raw = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._tls.wrap_socket(raw, server_hostname=self.host)


def _request(
    host: str, address: str, port: int, secure: bool, method: str, path: str, headers: dict[str, str], body: str,
    rules: UrlRules,
) -> Result:
    kind = _PinnedHttps if secure else _PinnedHttp
    connection = kind(host, address, port, rules.timeout_seconds)
    try:
        connection.request(method, quote(path, safe="/?&=%+:@-._~"), body=body.encode(), headers=headers)
        response = connection.getresponse()
        response.read(64 * 1024)
        status = response.status
    except (OSError, http.client.HTTPException) as exc:
        return Result(Outcome.RETRY, f"no answer from {host} ({type(exc).__name__})")
    finally:
        connection.close()
    if 200 <= status < 300:
        return Result(Outcome.SENT)
    if 300 <= status < 400:
        return Result(Outcome.REFUSED, f"{host} answered with a redirect ({status}), which is not followed")
    if status == 429 or status >= 500:
        return Result(Outcome.RETRY, f"{host} answered {status}")
    return Result(Outcome.REFUSED, f"{host} answered {status}")


# -- every other scheme: Apprise, with the address checked as each connection is made --------------------------


_guarding: contextvars.ContextVar[UrlRules | None] = contextvars.ContextVar("notification_rules", default=None)
_unguarded_create_connection = urllib3.util.connection.create_connection


def _guarded_create_connection(address: tuple[str, int], *args: Any, **kwargs: Any) -> socket.socket:
    """urllib3's connection function; while a notification is sent in this context, to a checked address only."""
    rules = _guarding.get()
    if rules is None:
        return _unguarded_create_connection(address, *args, **kwargs)
    host, port = address
    checked = check_addresses(host.strip("[]"), port, rules)
    return _unguarded_create_connection((checked[0], port), *args, **kwargs)


urllib3.util.connection.create_connection = _guarded_create_connection


def _send_by_apprise(plugin: Any, notification: Notification, rules: UrlRules) -> Result:
    host, port = target_host(plugin)
    check_addresses(host, port, rules)
    plugin.socket_connect_timeout = plugin.socket_read_timeout = rules.timeout_seconds
    plugin.redirects = False
    token = _guarding.set(rules)
    try:
        sent = plugin.notify(body=notification.body, title=notification.title)
    except RefusedUrl:
        raise
    except Exception as exc:  # a plugin's own fault must not stop the worker
        return Result(Outcome.RETRY, f"{scheme_of(plugin.url())} could not send ({type(exc).__name__})")
    finally:
        _guarding.reset(token)
    return Result(Outcome.SENT) if sent else Result(Outcome.RETRY, f"{host} did not take the notification")
