"""The one short mode of every benchmark: `--short` runs it in seconds, on a handful of games.

The test suite runs each benchmark that way, end to end (tests/bench/test_benchmarks_run.py), so a benchmark that no
longer starts fails a test. A short run's figures show that the benchmark works, not how fast anything is.
"""

from __future__ import annotations

import argparse
from typing import Any

HELP = "a run of seconds on a handful of games, to check that the benchmark works (its figures mean little)"


def parse_args(parser: argparse.ArgumentParser, **short: Any) -> argparse.Namespace:
    """Parse the command line; with --short, every option in `short` that was not given takes that value."""
    parser.add_argument("--short", action="store_true", help=HELP)
    args = parser.parse_args()
    unknown = set(short) - set(vars(args))
    if unknown:
        raise ValueError(f"--short sets options the benchmark does not have: {sorted(unknown)}")
    if args.short:
        parser.set_defaults(**short)
        args = parser.parse_args()
    return args
