from __future__ import annotations

from pbem.addresses import mailbox_key, same_mailbox


def test_a_plus_tag_and_case_reach_the_same_mailbox() -> None:
    assert mailbox_key(" Ann+Ben@Example.ORG ") == "ann@example.org"
    assert same_mailbox("host+ben@example.org", "HOST@example.org")


def test_different_local_parts_or_domains_are_different_mailboxes() -> None:
    assert not same_mailbox("ann@example.org", "anna@example.org")
    assert not same_mailbox("ann@example.org", "ann@example.net")


def test_only_the_first_plus_starts_the_tag() -> None:
    assert mailbox_key("a+b+c@x.org") == "a@x.org"
