"""Errors the rules raise, as data: a `code` naming the rule and the `params` it needs to be told.

The engine holds no sentence: the application turns a code and its params into the reader's words
(pbem/words/refusals.py). Every code and its params are listed in docs/engine.md, "Refusals".
"""
from __future__ import annotations

from typing import Any


class EngineError(ValueError):
    """A refusal by the rules: `code` ("place_taken") and `params` ({"player": "Ann", "tool": "pick"})."""

    def __init__(self, code: str, /, **params: Any) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params

    def __str__(self) -> str:  # for logs and tracebacks; a reader gets the application's sentence
        return f"{self.code} {self.params!r}" if self.params else self.code


class IllegalMove(EngineError):
    """A move that the rules do not allow, or that is not a move at all."""


class InvalidSetup(EngineError):
    """A game that cannot be set up: wrong player count, unknown variant or option, a bad deck or snapshot."""


class NotYourTurn(IllegalMove):
    """A move by a seat whose decision is not pending."""
