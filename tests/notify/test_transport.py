"""Notification URLs: what is refused before anything is stored, and what arrives at a real receiver on loopback."""

from __future__ import annotations

import socket

import pytest

from pbem.config import DEFAULT_NOTIFICATION_SCHEMES
from pbem.notify.safety import RefusedUrl, UrlRules, check_url, masked
from pbem.notify.transport import Notification, Outcome, send
from tests.support.receivers import receiver

DEFAULT = UrlRules(DEFAULT_NOTIFICATION_SCHEMES, allow_private_addresses=False, timeout_seconds=2)
LOOPBACK_ALLOWED = UrlRules(DEFAULT_NOTIFICATION_SCHEMES, allow_private_addresses=True, timeout_seconds=2)
HELLO = Notification(title="Test mine - Saboteur", body="Your turn (round 1)")


def resolving(table: dict[str, str]):  # type: ignore[no-untyped-def]
    def resolve(host: str, port: int, *rest: object) -> list[tuple[object, ...]]:
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (table[host], port))]
    return resolve


@pytest.mark.parametrize("url", [
    "json://127.0.0.1:8080/hook", "ntfy://127.0.0.1:8080/topic", "json://10.1.2.3/hook", "json://192.168.0.9/x",
    "json://169.254.169.254/latest", "json://[::1]/x", "json://[::ffff:127.0.0.1]/x", "json://224.0.0.1/x",
    "json://0.0.0.0/x", "json://100.64.0.1/x", "json://240.0.0.1/x",
])
def test_the_default_configuration_refuses_local_and_private_addresses(url: str) -> None:
    with pytest.raises(RefusedUrl, match="private, local or reserved"):
        check_url(url, DEFAULT)


def test_a_name_that_resolves_to_a_private_address_is_refused() -> None:
    with pytest.raises(RefusedUrl, match="intranet.example is a private"):
        check_url("json://intranet.example/hook", DEFAULT, resolving({"intranet.example": "10.0.0.7"}))


@pytest.mark.parametrize(("url", "words"), [
    ("ftp://files.example/x", "ftp:// is not a kind this server sends to"),
    ("file:///etc/passwd", "file:// is not a kind"),
    ("https://example.org/hook", "https:// is not a kind"),
    ("ntfy.sh/topic", "That address is not a kind"),
    ("json://", "incomplete or malformed"),
    ("", "Give a notification address"),
])
def test_unknown_schemes_and_unreadable_urls_are_refused_in_words(url: str, words: str) -> None:
    with pytest.raises(RefusedUrl, match=words.replace("(", r"\(").replace(")", r"\)")):
        check_url(url, DEFAULT)


def test_a_public_url_is_accepted_and_shown_back_only_masked() -> None:
    checked = check_url("ntfy://ntfy.sh/saboteur-f00d-k3", DEFAULT, resolving({"ntfy.sh": "159.203.148.75"}))

    assert checked.host == "ntfy.sh"
    assert checked.masked == "ntfy://ntfy.sh/…k3"
    assert "f00d" not in masked("discord://1234567/f00dtokenab", "discord.com")


def test_a_json_webhook_on_loopback_gets_one_post_with_the_words() -> None:
    with receiver() as hook:
        url = hook.url("json", "hook")
        check_url(url, LOOPBACK_ALLOWED)
        result = send(url, HELLO, LOOPBACK_ALLOWED)

    assert result.outcome is Outcome.SENT
    assert [(a.method, a.path) for a in hook.arrived] == [("POST", "/hook")]
    assert hook.arrived[0].json == {
        "version": "1.0", "title": "Test mine - Saboteur", "message": "Your turn (round 1)", "attachments": [],
        "type": "info",
    }


def test_an_ntfy_topic_on_loopback_gets_one_post_with_the_words() -> None:
    with receiver() as ntfy:
        result = send(ntfy.url("ntfy", "my-topic"), HELLO, LOOPBACK_ALLOWED)

    assert result.outcome is Outcome.SENT
    assert [(a.path, a.json) for a in ntfy.arrived] == [
        ("/", {"topic": "my-topic", "title": "Test mine - Saboteur", "message": "Your turn (round 1)"})
    ]


def test_a_send_checks_the_address_again_so_the_default_configuration_sends_nothing_to_loopback() -> None:
    with receiver() as hook:
        result = send(hook.url("json", "hook"), HELLO, DEFAULT)

    assert result.outcome is Outcome.REFUSED
    assert hook.arrived == []


@pytest.mark.parametrize(("status", "outcome"), [
    (302, Outcome.REFUSED), (301, Outcome.REFUSED), (404, Outcome.REFUSED), (401, Outcome.REFUSED),
    (500, Outcome.RETRY), (503, Outcome.RETRY), (429, Outcome.RETRY),
])
def test_answers_tell_a_retry_from_a_refusal_and_a_redirect_is_never_followed(status: int, outcome: Outcome) -> None:
    with receiver() as elsewhere, receiver() as hook:
        hook.status, hook.location = status, elsewhere.url("http", "stolen")
        result = send(hook.url("json", "hook"), HELLO, LOOPBACK_ALLOWED)

    assert result.outcome is outcome
    assert len(hook.arrived) == 1 and elsewhere.arrived == []
    assert "hook" not in result.error and str(hook.port) not in result.error


def test_a_receiver_that_is_down_is_retried_later() -> None:
    with receiver() as gone:
        url = gone.url("json", "hook")
    assert send(url, HELLO, LOOPBACK_ALLOWED).outcome is Outcome.RETRY


def test_other_services_go_through_apprise_with_redirects_off_and_the_address_checked() -> None:
    with receiver() as elsewhere, receiver() as gotify:
        url = gotify.url("gotify", "apptoken1234")
        assert send(url, HELLO, LOOPBACK_ALLOWED).outcome is Outcome.SENT
        assert send(url, HELLO, DEFAULT).outcome is Outcome.REFUSED
        gotify.status, gotify.location = 302, elsewhere.url("http", "message")
        assert send(url, HELLO, LOOPBACK_ALLOWED).outcome is Outcome.RETRY

    assert [a.path for a in gotify.arrived] == ["/message", "/message"]
    assert "Your turn (round 1)" in gotify.arrived[0].body.decode()
    assert elsewhere.arrived == []
