"""A scratch PostgreSQL schema for a benchmark: created for the run, dropped after, whatever happens."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from pbem.db import with_driver


@contextmanager
def scratch_schema(url: str) -> Iterator[str]:
    """A URL whose connections work in a new, empty schema of the database at `url`."""
    admin = create_engine(with_driver(make_url(url)), isolation_level="AUTOCOMMIT")
    schema = f"bench_{uuid.uuid4().hex[:12]}"
    with admin.connect() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield make_url(url).update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(
            hide_password=False
        )
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()
