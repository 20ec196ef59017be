"""What the preset dictionaries are trained on (bench/train_snapshot_dictionary.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from pbem.snapshot_codec.dictionaries import compact
from pbem.snapshot_codec.states import state_parts
from pbem.snapshot_codec.tags import Unfit


def skeleton_text(state: dict[str, Any]) -> bytes | None:
    """The JSON part of a packed state before deflating (what the state dictionary is trained on), or None."""
    try:
        return state_parts(state)[0]
    except Unfit:
        return None


def training_texts(kind: str, values: Iterator[Any] | Sequence[Any]) -> list[bytes]:
    """What a dictionary of `kind` is trained on: the bytes that column deflates."""
    pick: Callable[[Any], bytes | None] = skeleton_text if kind == "state" else compact
    return [text for text in map(pick, values) if text is not None]
