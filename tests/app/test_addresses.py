from __future__ import annotations

import pytest

from pbem.addresses import address_key, address_mistake, mailbox_key, same_mailbox
from pbem.errors import ValidationError
from pbem.service.text import clean_email


def test_a_plus_tag_and_case_reach_the_same_mailbox() -> None:
    assert mailbox_key(" Ann+Ben@Example.ORG ") == "ann@example.org"
    assert same_mailbox("host+ben@example.org", "HOST@example.org")


def test_different_local_parts_or_domains_are_different_mailboxes() -> None:
    assert not same_mailbox("ann@example.org", "anna@example.org")
    assert not same_mailbox("ann@example.org", "ann@example.net")


def test_only_the_first_plus_starts_the_tag() -> None:
    assert mailbox_key("a+b+c@x.org") == "a@x.org"


def test_two_spellings_of_one_address_are_the_same_address_but_a_tag_makes_another() -> None:
    assert address_key(" Ann@Example.org ") == address_key("ann@example.org")
    assert address_key("ann+x@example.org") != address_key("ann@example.org")


@pytest.mark.parametrize(("typed", "words"), [
    ("ann@example", "needs a dot"),
    ("ann\u202e@example.org", "only letters"),  # a character that turns the text around it
    ("ann\u200b@example.org", "only letters"),  # an invisible one
    ("ann:x@example.org", "only letters"),
    ("a" * 321 + "@example.org", "too long"),
    ("ann@@example.org", "only one @"),
])
def test_what_is_not_an_address_is_said_in_words(typed: str, words: str) -> None:
    mistake = address_mistake(typed)
    assert mistake is not None and words in mistake


def test_mail_that_stays_on_this_machine_is_an_address() -> None:
    assert address_mistake("you@localhost") is None
    assert address_mistake("Ann+games@example.org") is None


def test_every_service_that_takes_an_address_takes_it_by_the_same_rule() -> None:
    with pytest.raises(ValidationError, match="needs a dot"):
        clean_email("host email", "host@example")
    assert clean_email("host email", " you@localhost ") == "you@localhost"
