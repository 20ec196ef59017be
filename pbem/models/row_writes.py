"""Writing the rows of a move with plain statements instead of the session's unit of work.

A move inserts its snapshot and its turn email and updates its game and turn clock. `Session.flush` would
compare every loaded object with what was read, sort the tables by their foreign keys and build each statement
anew (its cost: docs/performance.md). Here each write is one statement, built once per table and set of columns,
run on the session's own connection, so it stays in the caller's transaction and commits or rolls back with it.

An object the session has loaded is kept true: `update_row` stores the new values in it as if they had been
read, so nothing is written twice and later code in the same transaction sees them. Everything else keeps
using the session as usual.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, cast

from sqlalchemy import (
    Boolean,
    CursorResult,
    Executable,
    Insert,
    Table,
    Update,
    bindparam,
    insert,
    inspect,
    select,
    update,
)
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from pbem.models.base import Base


def insert_row(session: Session, model: type[Base], values: dict[str, Any]) -> None:
    """INSERT one row of `model`'s table now, in the session's transaction (no object is created)."""
    session.connection().execute(_insert(_table(model)), values)


def insert_row_if(session: Session, model: type[Base], values: dict[str, Any], wanted: bool) -> None:
    """INSERT one row of `model`'s table only when `wanted`, by the same statement either way
    (`INSERT ... SELECT ... WHERE :wanted`): for a caller whose cost must not tell which way it went."""
    names = tuple(sorted(values))
    params: dict[str, Any] = {f"v_{name}": values[name] for name in names}
    session.connection().execute(_insert_if(_table(model), names), {**params, "wanted": wanted})


def update_row(session: Session, row: Base, **values: Any) -> None:
    """UPDATE the loaded `row` by its primary key now; the object shows the new values and has nothing to flush.

    Attributes changed on the object before and not named here are left to the session's next flush."""
    table = _table(type(row))
    params = {f"v_{key}": value for key, value in values.items()}
    for column in table.primary_key.columns:
        params[f"pk_{column.key}"] = getattr(row, column.key)  # the models name attributes as their columns
    session.connection().execute(_update(table, tuple(sorted(values))), params)
    for key, value in values.items():
        set_committed_value(row, key, value)
    state = inspect(row)
    if state.modified and not state.committed_state:
        # Everything changed on it is written: without this the session would still count the row as dirty
        # and run a whole flush at commit to find nothing to write.
        state._commit_all(state.dict, session.identity_map)


def update_unloaded(
    session: Session, model: type[Base], key: dict[str, Any], values: dict[str, Any], *, add: dict[str, int]
) -> bool:
    """UPDATE a row of `model` this session has not loaded, by its primary key `key`: `values` are set and the
    counters in `add` raised by the amounts given, in the database. False if there is no such row."""
    table = _table(model)
    params = {f"v_{name}": value for name, value in values.items()}
    params.update({f"add_{name}": amount for name, amount in add.items()})
    params.update({f"pk_{name}": value for name, value in key.items()})
    statement = _update(table, tuple(sorted(values)), tuple(sorted(add)))
    return session.connection().execute(statement, params).rowcount == 1


def rows_changed(session: Session, statement: Executable) -> int:
    """Run an UPDATE or DELETE in the session's transaction; how many rows it matched (0 when a race was lost)."""
    result = session.execute(statement)
    return cast(CursorResult[Any], result).rowcount  # what an UPDATE or DELETE returns


def flush_changed(session: Session, row: Base) -> None:
    """Write the attributes changed on the loaded `row` since it was read, as one UPDATE (none if nothing changed)."""
    state = inspect(row)
    columns = state.mapper.column_attrs
    changed = {key: getattr(row, key) for key in state.committed_state if key in columns}
    if changed:
        update_row(session, row, **changed)


def _table(model: type[Base]) -> Table:
    return cast(Table, model.__table__)  # every model maps one Table (declared as the wider FromClause)


@lru_cache(maxsize=64)
def _insert(table: Table) -> Insert:
    # inline: no RETURNING of the new primary key, which nobody asks for.
    return insert(table).inline()


@lru_cache(maxsize=16)
def _insert_if(table: Table, names: tuple[str, ...]) -> Insert:
    chosen = select(*(bindparam(f"v_{name}", type_=table.c[name].type) for name in names))
    return insert(table).from_select(list(names), chosen.where(bindparam("wanted", type_=Boolean())))


@lru_cache(maxsize=256)
def _update(table: Table, keys: tuple[str, ...], added: tuple[str, ...] = ()) -> Update:
    where = [column == bindparam(f"pk_{column.key}") for column in table.primary_key.columns]
    values: dict[str, Any] = {key: bindparam(f"v_{key}") for key in keys}
    values.update({name: table.c[name] + bindparam(f"add_{name}") for name in added})
    return update(table).where(*where).values(values)
