"""Per-seat reply addresses: short enough for an address, case-insensitive, signed, dated, rotatable; and their
configuration, which refuses an address that could not carry them."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from pbem.clock import SettableClock
from pbem.config import ConfigError, load_config
from pbem.mail.reply_address import MAX_LOCAL_LENGTH, TOKEN_LENGTH, ReplyAddresses, ReplyTokenError
from tests.support.database import START, TEST_SECRET

OLD_SECRET = "an-older-secret-key-0123456789"
AGE = timedelta(days=30)


@pytest.fixture
def replies(clock: SettableClock) -> ReplyAddresses:
    return ReplyAddresses((TEST_SECRET,), "play@replies.example.org", AGE, clock)


def token_of(replies: ReplyAddresses, seat_pk: int = 7, version: int = 1) -> str:
    token = replies.token_in(replies.address(seat_pk, version))
    assert token is not None
    return token


def test_an_address_names_its_seat_and_fits_the_limits_of_an_address(replies: ReplyAddresses) -> None:
    address = replies.address(4_000_000_000, 3)
    local = address.split("@")[0]

    claim = replies.verify(token_of(replies, 4_000_000_000, 3))

    assert address.startswith("play+") and address.endswith("@replies.example.org")
    assert len(local) <= 64 and len(local) == len("play+") + TOKEN_LENGTH
    assert local == local.lower()
    assert (claim.seat_pk, claim.matches_version(3), claim.matches_version(4)) == (4_000_000_000, True, False)


def test_an_address_is_recognised_in_any_case(replies: ReplyAddresses) -> None:
    address = replies.address(7, 1)

    assert replies.token_in(address.upper()) == replies.token_in(address)
    assert replies.is_ours("PLAY@Replies.Example.org") and replies.is_ours(address.upper())
    assert not replies.is_ours("other@replies.example.org") and not replies.is_ours("play@elsewhere.example")


@pytest.mark.parametrize("position", range(TOKEN_LENGTH))
def test_changing_any_character_of_the_token_makes_it_invalid(replies: ReplyAddresses, position: int) -> None:
    token = token_of(replies)
    changed = token[:position] + ("b" if token[position] != "b" else "c") + token[position + 1 :]

    with pytest.raises(ReplyTokenError) as refused:
        replies.verify(changed)

    assert refused.value.reason == "invalid"


@pytest.mark.parametrize("token", ["", "a", "not base32 at all!", "a" * TOKEN_LENGTH, "a" * (TOKEN_LENGTH + 8)])
def test_garbage_is_invalid(replies: ReplyAddresses, token: str) -> None:
    with pytest.raises(ReplyTokenError, match="invalid"):
        replies.verify(token)


def test_an_address_works_for_its_age_and_then_expires(replies: ReplyAddresses, clock: SettableClock) -> None:
    token = token_of(replies)

    clock.advance(AGE)
    replies.verify(token)
    clock.advance(timedelta(days=1))
    with pytest.raises(ReplyTokenError) as refused:
        replies.verify(token)

    assert refused.value.reason == "expired"


def test_addresses_signed_with_an_older_key_keep_working_until_it_is_dropped(clock: SettableClock) -> None:
    before = ReplyAddresses((OLD_SECRET,), "play@replies.example.org", AGE, clock)
    rotated = ReplyAddresses((TEST_SECRET, OLD_SECRET), "play@replies.example.org", AGE, clock)
    dropped = ReplyAddresses((TEST_SECRET,), "play@replies.example.org", AGE, clock)
    token = token_of(before)

    assert rotated.verify(token).seat_pk == 7
    with pytest.raises(ReplyTokenError, match="invalid"):
        dropped.verify(token)


def test_the_token_of_another_reply_mailbox_is_not_ours(replies: ReplyAddresses, clock: SettableClock) -> None:
    other = ReplyAddresses((TEST_SECRET,), "talk@replies.example.org", AGE, clock)

    assert replies.token_in(other.address(7, 1)) is None


def test_the_header_names_the_game(replies: ReplyAddresses) -> None:
    header = replies.header(7, 1, 'The "Friday" mine')

    assert header.startswith('"The \\"Friday\\" mine (table talk)" <play+') and header.endswith(">")


# -- configuration --------------------------------------------------------------------------------------------


def configured(tmp_path: Path, mail: str) -> None:
    path = tmp_path / "pbem.toml"
    path.write_text(f'instance_path = "{tmp_path}"\nsecret_keys = ["{TEST_SECRET}"]\n[mail]\n{mail}\n')
    load_config(path, environ={})


@pytest.mark.parametrize(
    ("mail", "named"),
    [
        ('reply_address = "play+x@example.org"', "may not contain '+'"),
        (f'reply_address = "{"p" * (MAX_LOCAL_LENGTH + 1)}@example.org"', f"at most {MAX_LOCAL_LENGTH} characters"),
        ('reply_address = "not an address"', "mail.reply_address"),
        ('reply_address = "Play <play@example.org>"', "mail.reply_address"),
        ('[mail.imap]\nhost = "imap.example.org"', "mail.reply_address is empty"),
    ],
)
def test_a_reply_address_that_cannot_carry_tokens_stops_start_up(tmp_path: Path, mail: str, named: str) -> None:
    with pytest.raises(ConfigError, match="mail"):
        configured(tmp_path, mail)
    with pytest.raises(ConfigError) as refused:
        configured(tmp_path, mail)
    assert named in str(refused.value)


def test_the_imap_password_may_come_from_the_environment(tmp_path: Path) -> None:
    path = tmp_path / "pbem.toml"
    path.write_text(
        f'instance_path = "{tmp_path}"\nsecret_keys = ["{TEST_SECRET}"]\n'
        '[mail]\nreply_address = "play@example.org"\n[mail.imap]\nhost = "imap.example.org"\n'
    )

    config = load_config(path, environ={"PBEM_IMAP_PASSWORD": "from-env"})

    assert config.mail.imap.password == "from-env"
    assert "from-env" not in repr(config)


def test_addresses_are_dated_by_the_injected_clock(replies: ReplyAddresses, clock: SettableClock) -> None:
    clock.set(START + timedelta(days=400))
    fresh = token_of(replies)
    clock.advance(AGE + timedelta(days=1))

    with pytest.raises(ReplyTokenError, match="expired"):
        replies.verify(fresh)
