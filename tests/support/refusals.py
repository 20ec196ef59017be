"""The rules' refusals as a player reads them: the engine raises a code and its params, pbem/words says it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

import engine
from pbem.words.refusals import refusal


@contextmanager
def refused(match: str, error: type[engine.EngineError] = engine.IllegalMove) -> Iterator[pytest.ExceptionInfo]:
    """Like `pytest.raises(error, match=match)`, matching the refusal's sentence (the code alone says no words)."""
    with pytest.raises(error) as caught:
        yield caught
    said = refusal(caught.value)
    assert re.search(match, said), f"{match!r} not in {said!r}"


def told(error: BaseException) -> str:
    """The sentence a reader gets for an engine refusal."""
    assert isinstance(error, engine.EngineError), error
    return refusal(error)
