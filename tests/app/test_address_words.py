"""What is wrong with a typed address is said in the reader's language where a person reads it, and in English where
the configuration's checks print it."""

from __future__ import annotations

import pytest

from pbem.addresses import address_mistake
from pbem.i18n import gettext, in_language

pytestmark = pytest.mark.usefixtures("compiled_catalogues")


def test_the_configuration_reads_an_address_mistake_in_english() -> None:
    assert address_mistake("ann@example") == "The part after the @ needs a dot, like example.org or gmail.com."


@pytest.mark.parametrize(("language", "said"), [
    ("de", "Der Teil nach dem @ braucht einen Punkt, etwa example.org oder gmail.com."),
    ("ko", "@ 뒤에는 example.org나 gmail.com처럼 점이 있어야 해요."),
])
def test_a_person_reads_an_address_mistake_in_their_language(language: str, said: str) -> None:
    with in_language(language):
        assert address_mistake("ann@example", gettext) == said
        assert address_mistake("ann@example.org", gettext) is None
