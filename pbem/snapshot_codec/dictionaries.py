"""Deflate with the preset dictionaries of each column (package data, never changed once released)."""

from __future__ import annotations

import json
import zlib
from functools import cache
from typing import Any

from pbem.snapshot_codec.tags import DICTIONARIES, DICTIONARY_VERSION, CorruptPayload


@cache
def dictionary(version: int, kind: str) -> bytes:
    """The preset dictionary `kind` of `version` (package data, never changed once released)."""
    return (DICTIONARIES / str(version) / f"{kind}.zdict").read_bytes()


@cache
def _compressor(version: int, kind: str) -> Any:
    """A raw-deflate compressor primed with the dictionary, copied for each payload (priming costs more)."""
    return zlib.compressobj(9, zlib.DEFLATED, -15, 8, zlib.Z_DEFAULT_STRATEGY, zdict=dictionary(version, kind))


def deflate(data: bytes, kind: str, version: int = DICTIONARY_VERSION) -> bytes:
    compressor = _compressor(version, kind).copy()
    return compressor.compress(data) + compressor.flush()


def inflate(data: bytes, kind: str, version: int = DICTIONARY_VERSION) -> bytes:
    inflater = zlib.decompressobj(-15, zdict=dictionary(version, kind))
    try:
        out = inflater.decompress(data) + inflater.flush()
    except zlib.error as error:
        raise CorruptPayload(f"the {kind} payload is not deflate: {error}") from error
    if not inflater.eof or inflater.unused_data:
        raise CorruptPayload(f"the {kind} payload does not end where its deflate stream does")
    return out


def compact(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")
