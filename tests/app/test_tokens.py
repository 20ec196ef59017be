"""Magic links: signed, dated, tied to one seat, rotatable keys; any damage is a BadLink."""

from __future__ import annotations

from datetime import timedelta

import pytest
from itsdangerous import URLSafeTimedSerializer

from pbem.clock import SettableClock
from pbem.errors import BadLink, ExpiredLink
from pbem.seat_link import SeatLink
from pbem.tokens import LINK_SALT, LinkSigner
from tests.support.games import link_token

NEW_KEY = "the-newest-secret-key-0123456789"
OLD_KEY = "an-older-secret-key-0123456789ab"
SEAT = SeatLink(game_id="Gx7-public-id", seat=2, version=3)


def signer(clock: SettableClock, *keys: str) -> LinkSigner:
    return LinkSigner(keys or (NEW_KEY,), "https://pbem.test/", timedelta(days=30), clock)


def test_a_link_points_at_the_play_page_and_names_its_seat(clock: SettableClock) -> None:
    links = signer(clock)

    url = links.url(SEAT)

    assert url.startswith("https://pbem.test/play/")
    assert links.verify(link_token(url)) == SEAT


def test_a_tampered_token_is_a_bad_link(clock: SettableClock) -> None:
    links = signer(clock)
    token = links.token(SEAT)
    tampered = token[:-2] + ("AA" if token[-2:] != "AA" else "BB")

    with pytest.raises(BadLink):
        links.verify(tampered)
    with pytest.raises(BadLink):
        links.verify("")


def test_a_token_signed_with_an_unknown_key_is_a_bad_link(clock: SettableClock) -> None:
    token = signer(clock, "somebody-elses-secret-key-000000").token(SEAT)

    with pytest.raises(BadLink):
        signer(clock).verify(token)


def test_a_link_expires_after_its_maximum_age(clock: SettableClock) -> None:
    links = signer(clock)
    token = links.token(SEAT)

    clock.advance(timedelta(days=30))
    assert links.verify(token) == SEAT
    clock.advance(timedelta(seconds=2))
    with pytest.raises(ExpiredLink) as expired:
        links.verify(token)

    assert expired.value.link == SEAT
    assert expired.value.status == 410


def test_rotating_keys_keeps_links_in_flight_valid(clock: SettableClock) -> None:
    issued_before_rotation = signer(clock, OLD_KEY).token(SEAT)
    rotated = signer(clock, NEW_KEY, OLD_KEY)

    assert rotated.verify(issued_before_rotation) == SEAT
    issued_after_rotation = rotated.token(SEAT)
    assert signer(clock, NEW_KEY).verify(issued_after_rotation) == SEAT
    with pytest.raises(BadLink):
        signer(clock, OLD_KEY).verify(issued_after_rotation)


def test_a_token_signed_for_another_purpose_is_a_bad_link(clock: SettableClock) -> None:
    other_salt = URLSafeTimedSerializer(NEW_KEY, salt="pbem.something-else").dumps({"g": "x", "s": 0, "v": 1})

    with pytest.raises(BadLink):
        signer(clock).verify(other_salt)


@pytest.mark.parametrize(
    "payload",
    [[1, 2, 3], {"g": "x", "s": "0", "v": 1}, {"g": "x", "s": 0}, {"g": 5, "s": 0, "v": 1},
     {"g": "x", "s": True, "v": 1}],
)
def test_an_authentic_token_of_the_wrong_shape_is_a_bad_link(clock: SettableClock, payload: object) -> None:
    forged_shape = URLSafeTimedSerializer(NEW_KEY, salt=LINK_SALT).dumps(payload)

    with pytest.raises(BadLink):
        signer(clock).verify(forged_shape)
