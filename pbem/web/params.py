"""Whole numbers from a request: query strings, form fields and `<int:...>` path parts, always bounded.

A number a client sends ends up in a database query, a `timedelta` or an engine move; an unbounded one
overflows there (a 500). Every integer parameter is read here instead: plain ASCII digits, within bounds,
else a ValidationError (400) that names what was expected. Path parts outside the bounds, or holding a
control character, are not found.
"""

from __future__ import annotations

import re

from babel.support import LazyProxy
from flask import Flask
from werkzeug.routing import IntegerConverter, UnicodeConverter
from werkzeug.routing.map import Map

from pbem.errors import ValidationError

# The largest value of a PostgreSQL INTEGER column, the narrowest integer the database stores.
LARGEST = 2**31 - 1
WHOLE_NUMBER = re.compile(r"[+-]?[0-9]{1,18}")


# The error's words: on a seat's page, lazy (`lazy_gettext`), so that a request with good numbers translates nothing
# (a seat's language costs a read at its first word).
Message = str | LazyProxy


def optional_int(raw: str | None, message: Message, *, minimum: int = 0, maximum: int = LARGEST) -> int | None:
    """None when the parameter is missing or empty; ValidationError(`message`) unless it is a whole number
    from `minimum` to `maximum`."""
    if raw is None or not raw.strip():
        return None
    text = raw.strip()
    if not WHOLE_NUMBER.fullmatch(text):
        raise ValidationError(str(message))
    value = int(text)
    if not minimum <= value <= maximum:
        raise ValidationError(str(message))
    return value


def required_int(raw: str | None, message: Message, *, minimum: int = 0, maximum: int = LARGEST) -> int:
    """Like `optional_int`, but a missing or empty parameter is an error too."""
    value = optional_int(raw, message, minimum=minimum, maximum=maximum)
    if value is None:
        raise ValidationError(str(message))
    return value


class BoundedIntegerConverter(IntegerConverter):
    """`<int:...>` in a route: no sign, at most `LARGEST` (a longer number is simply not a page here)."""

    def __init__(self, url_map: Map, fixed_digits: int = 0, min: int | None = None, max: int | None = None,
                 signed: bool = False) -> None:
        super().__init__(url_map, fixed_digits=fixed_digits, min=min, max=LARGEST if max is None else max,
                         signed=signed)


class VisibleSegmentConverter(UnicodeConverter):
    """`<name>` in a route (a token, a game id, an action): never a control character, which no address of
    ours holds and which PostgreSQL refuses in a query (a NUL byte)."""

    def __init__(self, url_map: Map, minlength: int = 1, maxlength: int | None = None,
                 length: int | None = None) -> None:
        super().__init__(url_map, minlength=minlength, maxlength=maxlength, length=length)
        self.regex = self.regex.replace("[^/]", r"[^/\x00-\x1f\x7f]")


def init_app(app: Flask) -> None:
    """Before any blueprint is registered, so that every route's `<int:...>` and `<name>` are checked."""
    app.url_map.converters["int"] = BoundedIntegerConverter
    app.url_map.converters["default"] = VisibleSegmentConverter
