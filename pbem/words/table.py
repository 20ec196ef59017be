"""Tables of messages keyed by the engine's identifiers, translated when read (not when the module loads).

`N_(message)` and `NP_(context, message)` mark a table's messages for the catalogue (extract keywords `N_` and
`NP_:1c,2`); a table translates each one when it is read, in the reader's language of that moment.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import overload

from pbem.i18n import gettext, pgettext

Message = str | tuple[str, str]  # a message, or (context, message) for a short word with several senses


def N_(message: str) -> str:
    """Marks a message for the catalogue; it is translated where it is read."""
    return message


def NP_(context: str, message: str) -> tuple[str, str]:
    """Marks a message in a context ("goal", "top") for the catalogue; translated where it is read."""
    return (context, message)


def translated(message: Message) -> str:
    return gettext(message) if isinstance(message, str) else pgettext(*message)


class Words(Mapping[str, str]):
    """A read-only table of messages: `WORDS[key]` is the message in the reader's language."""

    def __init__(self, messages: Mapping[str, Message]) -> None:
        self._messages = dict(messages)

    def __getitem__(self, key: str) -> str:
        return translated(self._messages[key])

    def __iter__(self) -> Iterator[str]:
        return iter(self._messages)

    def __len__(self) -> int:
        return len(self._messages)


class WordRow(Sequence[str]):
    """A fixed row of messages (the goals top to bottom), each in the reader's language."""

    def __init__(self, *messages: Message) -> None:
        self._messages = messages

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...

    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        if isinstance(index, slice):
            return [translated(message) for message in self._messages[index]]
        return translated(self._messages[index])

    def __len__(self) -> int:
        return len(self._messages)


def NN_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a message's singular and plural for the catalogue; `ngettext` picks one where it is read."""
    return (singular, plural)
