"""What this process has already worked out from snapshots that can no longer change.

A committed snapshot is never updated (a rollback appends a copy under a new sequence number), so anything
derived from one game's snapshot `seq` alone, and from values that are part of the key, is the same for every
later request: the decoded engine state, a seat's view and legal moves, its history lines, the drawing of its
board. Keys begin with a kind and the game's public id (random, so two databases never share a key), then the
sequence number, then whatever else the value depends on (the seat, the players' names, a time zone). Rows that do
change are kept under the versions the database gave them (`game_rows`: pbem/service/row_versions.py).

Only what was read from committed rows may be stored: read sessions fill the memo; a write transaction only
looks, and what it wrote (a new snapshot's state) is stored once it has committed. Each kind keeps a fixed number
of entries, the least recently used leaving first, so a worker's memory stays bounded however many games it serves.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from typing import Any, TypeVar

from sqlalchemy.orm import Session

T = TypeVar("T")
MEMO = "pbem_memo"  # session.info: the process's Memo
MEMO_FILLS = "pbem_memo_fills"  # session.info: True in read sessions only
AFTER_COMMIT = "pbem_memo_after_commit"  # session.info: what a write transaction adds once it has committed

# Entries per kind (per process). A decoded state is ~20-40 kB of Python objects; a history or a fragment of
# HTML grows with the game (tens of kB for a long one). So a few hundred of each: ~50-100 MB at most a worker.
CAPACITY: Mapping[str, int] = {
    "state": 512,
    "seat_view": 1024,
    "history": 256,
    "chat": 512,
    "thread": 4096,  # the root Message-ID of one mailbox's conversation about one game: a short string
    "fragment": 1024,
    "choices": 1024,  # a seat's legal moves with their labels, as state.json gives them
    "game_rows": 1024,  # a game with its seats and clock under their row versions (pbem/service/row_versions.py)
}


class Memo:
    def __init__(self, capacity: Mapping[str, int] = CAPACITY) -> None:
        self._capacity = dict(capacity)
        self._entries: dict[str, OrderedDict[Hashable, Any]] = {kind: OrderedDict() for kind in capacity}
        self._lock = threading.Lock()

    def get(self, kind: str, key: Hashable) -> Any | None:
        entries = self._entries[kind]
        with self._lock:
            value = entries.get(key)
            if value is not None:
                entries.move_to_end(key)
            return value

    def put(self, kind: str, key: Hashable, value: Any) -> None:
        entries = self._entries[kind]
        with self._lock:
            entries[key] = value
            entries.move_to_end(key)
            while len(entries) > self._capacity[kind]:
                entries.popitem(last=False)

    def get_or_make(self, kind: str, key: Hashable, make: Callable[[], T]) -> T:
        """The stored value, or `make()` stored. Two requests may both make it: the value is the same."""
        value = self.get(kind, key)
        if value is None:
            value = make()
            self.put(kind, key, value)
        return value

    def sizes(self) -> dict[str, int]:
        """Entries held per kind."""
        with self._lock:
            return {kind: len(entries) for kind, entries in self._entries.items()}

    def clear(self) -> None:
        with self._lock:
            for entries in self._entries.values():
                entries.clear()

    def __len__(self) -> int:
        return sum(self.sizes().values())


def remember_when_committed(session: Session, kind: str, key: Hashable, value: Any) -> None:
    """Store `value` once the write transaction of `session` commits (`Database.write` does it then)."""
    session.info.setdefault(AFTER_COMMIT, []).append((kind, key, value))


def store_committed(session: Session) -> None:
    """What `remember_when_committed` set aside, into the memo: the transaction has just committed."""
    memo = session.info.get(MEMO)
    for kind, key, value in session.info.pop(AFTER_COMMIT, ()):
        if memo is not None:
            memo.put(kind, key, value)


def recalled(session: Session, kind: str, key: Hashable) -> Any | None:
    """What the process remembers under `key`, or None: for callers that look things up their own way."""
    memo = session.info.get(MEMO)
    return None if memo is None else memo.get(kind, key)


def remembered(session: Session, kind: str, key: Hashable, make: Callable[[], T]) -> T:
    """`make()`, or what this process made before. A write transaction may use what is stored (it was made
    from committed rows) but stores nothing itself: what it reads may include its own, uncommitted rows."""
    memo = session.info.get(MEMO)
    if memo is None:
        return make()
    value = memo.get(kind, key)
    if value is None:
        value = make()
        if session.info.get(MEMO_FILLS):
            memo.put(kind, key, value)
    return value
