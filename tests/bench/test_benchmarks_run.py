"""Every benchmark in bench/ runs: each is started as a person would start it, `python -m bench.<name> --short`
from the repository root, and must finish and print its figures, each a number. A short run is a few seconds on
a handful of games (bench/short.py); its figures say nothing about speed, and no test here asserts one (the
machines are shared and noisy). The benchmarks that need PostgreSQL take PBEM_TEST_DATABASE_URL, using a scratch
schema of their own; the fault run starts its own private cluster, as tests/faults/test_processes.py does."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.database import POSTGRES_URL

REPO = Path(__file__).resolve().parents[2]
NUMBER = r"(-?[0-9][0-9,]*(?:\.[0-9]+)?)"
needs_postgres = pytest.mark.skipif(not POSTGRES_URL, reason="PBEM_TEST_DATABASE_URL is not set")
# Where PostgreSQL is given, the benchmarks that take it optionally measure it too.
POSTGRES = ["--postgres", POSTGRES_URL] if POSTGRES_URL else []
BACKENDS = 2 if POSTGRES_URL else 1


def run_short(module: str, *arguments: str, timeout: float = 300) -> str:
    """`python -m <module> --short <arguments>` from the repository root; what it printed. It must exit 0."""
    # The benchmarks write their own configuration: none of the caller's PBEM_ settings may leak into it.
    env = {name: value for name, value in os.environ.items() if not name.startswith("PBEM_")}
    finished = subprocess.run([sys.executable, "-m", module, "--short", *arguments], cwd=REPO, env=env,
                              capture_output=True, text=True, timeout=timeout)
    assert finished.returncode == 0, (
        f"{module} --short exited {finished.returncode}\n--- stdout\n{finished.stdout[-4000:]}\n"
        f"--- stderr\n{finished.stderr[-4000:]}"
    )
    return finished.stdout


def figures(output: str, line: str, count: int = 1) -> list[list[float]]:
    """The numbers of each printed line that reads like `line`, where `#` stands for a number and a space for
    any spaces (or none: the benchmarks align their columns); there must be exactly `count` such lines."""
    pattern = r"\s*".join(re.escape(word).replace("\\#", NUMBER).replace("#", NUMBER) for word in line.split())
    found = [[float(number.replace(",", "")) for number in match.groups()]
             for match in re.finditer(pattern, output)]
    assert len(found) == count, f"expected {count} line(s) like {line!r}, found {len(found)} in:\n{output}"
    return found


def test_engine_bench_prints_the_rules_timings_games_per_second_and_the_snapshot_size() -> None:
    output = run_short("bench.engine_bench")

    figures(output, "legal_moves median : # us ratio to baseline #")
    figures(output, "apply_move median : # us ratio to baseline #")
    for stage in ("mid", "late"):
        figures(output, f"players, {stage} : # us ratio to baseline # (# finished rounds, # board cards)", count=2)
    figures(output, "games per second : #", count=2)
    figures(output, "players, per second : #", count=2)
    figures(output, "snapshot size (median) : # B JSON, # B gzip")


def test_bot_bench_prints_each_match_up_win_rate_game_length_and_decision_time() -> None:
    output = run_short("bench.bot_bench")

    rows = figures(output, "diggers win #% of # rounds | # turns/game | gold # cards away when lost | "
                           "# ms/heuristic move | # s", count=4)
    assert all(rounds > 0 for _, rounds, *_ in rows)


def test_legality_cover_chooses_games_that_cover_what_all_the_candidates_cover() -> None:
    output = run_short("bench.legality_cover")

    figures(output, "# games, # CPU-s: # lines, # arcs", count=2)  # all the candidates, then those chosen
    assert "same cover: True" in output


def test_service_bench_prints_moves_per_second_through_the_service_on_each_database() -> None:
    output = run_short("bench.service_bench", *POSTGRES)

    figures(output, "engine.apply_move alone # moves # moves/s median # ms (#x engine alone)")
    figures(output, "submit_move, SQLite file # moves # moves/s median # ms (#x engine alone)")
    figures(output, "submit_move, PostgreSQL # moves # moves/s median # ms (#x engine alone)",
            count=1 if POSTGRES_URL else 0)


def test_memo_bench_prints_the_turn_page_cold_and_drawn_again_and_the_memory_held() -> None:
    output = run_short("bench.memo_bench")

    figures(output, "turn page, cold memo # ms (median of #)")
    figures(output, "turn page, drawn again # ms")
    figures(output, "warm / cold #")
    figures(output, "memory held # MB after # seats' pages")


def test_replay_bench_prints_a_replay_step_the_offline_file_and_the_archive_against_the_turn_page() -> None:
    output = run_short("bench.replay_bench", *POSTGRES)

    games = 2 * BACKENDS  # the game played, and its history twice over
    figures(output, "turn page (baseline) # ms", count=games)
    figures(output, "replay step, a player's eyes, game running median # ms (max #) #x the turn page", count=games)
    figures(output, "replay step, everything open, game over median # ms (max #) #x the turn page", count=games)
    figures(output, "offline replay file # ms #x the turn page # MB (# MB gzipped), # kB per step", count=games)
    figures(output, "JSON archive # ms #x the turn page # MB (# MB gzipped)", count=games)


def test_sweep_bench_prints_a_busy_and_an_idle_sweep_for_each_number_of_games() -> None:
    output = run_short("bench.sweep_bench", *POSTGRES)

    rows = figures(output, "# games: sweep # ms (#x), idle sweep # ms (#x); # reminders, # warnings, # timeouts",
                   count=2 * BACKENDS)
    assert all(reminders + timeouts > 0 for *_, reminders, _, timeouts in rows)  # the due games were swept


def test_storage_bench_prints_the_bytes_per_turn_and_per_game_on_each_database() -> None:
    output = run_short("bench.storage_bench", "--players", "3", "--variant", "saboteur2",
                       *(POSTGRES or ["--no-postgres"]))

    figures(output, "# finished games of # (saboteur2), # snapshots (# per game)", count=BACKENDS)
    figures(output, "state per snapshot mean # B largest # B", count=BACKENDS)
    figures(output, "state+move+events mean # B per snapshot (stored)", count=BACKENDS)
    figures(output, "B per turn, # KB per game", count=BACKENDS)
    figures(output, "whole database (mail, seals, ...) # KB per game", count=BACKENDS)
    figures(output, "at scale: # snapshots (the games copied), table # B per turn", count=BACKENDS)
    figures(output, "goal <= # B per turn:", count=BACKENDS)
    figures(output, "3 players saboteur2 SQLite # B", count=1)


def test_the_snapshot_dictionary_trainer_prints_each_column_and_writes_a_vocabulary(tmp_path: Path) -> None:
    output = run_short("bench.train_snapshot_dictionary")
    written = run_short("bench.train_snapshot_dictionary", "--vocabulary", str(tmp_path))

    for kind in ("state", "move", "events"):
        figures(output, f"{kind} # samples, dictionary # B: held-out games' mean # B raw, # B deflated with it")
    figures(written, "vocabulary: # words, # templates")
    assert set(json.loads((tmp_path / "vocabulary.json").read_text())) == {"words", "templates", "kinds", "usual"}


@pytest.mark.slow
@pytest.mark.postgres
@needs_postgres
def test_http_bench_serves_every_scenario_without_errors_in_the_production_shape_and_prints_the_ratios() -> None:
    output = run_short("bench.http_bench", "--postgres", POSTGRES_URL)

    for scenario in ("floor A", "turn page", "state.json", "floor B", "move"):
        (count, *_), = figures(output, f"{scenario} # req # req/s p50 # ms p99 # ms errors 0")
        assert count > 0
    figures(output, "turn page / floor A #")
    figures(output, "state.json / floor A #")
    figures(output, "move / floor B #")
    assert "ran out of prepared moves" not in output


@pytest.mark.slow
@pytest.mark.postgres
@needs_postgres
def test_soak_plays_its_game_to_the_end_over_http_with_nothing_lost() -> None:
    output = run_short("bench.soak", "--postgres", POSTGRES_URL)

    figures(output, "played # moves in # s (# moves/s), # requests; # double clicks, # stale forms, "
                    "# pairs of concurrent moves")
    figures(output, "OK: # games finished, no gaps in their snapshots, every sent email received once, no 5xx")


@pytest.mark.slow
def test_a_fault_run_from_the_command_line_reports_its_figures_and_nothing_lost() -> None:
    output = run_short("bench.faults.run", "worker-kill", timeout=600)

    assert "== worker-kill: SIGKILL a gunicorn worker" in output
    figures(output, "games # (finished #); moves acknowledged #, player snapshots #, server snapshots #, gaps 0")
    figures(output, "workers killed: #")
    assert "OK: nothing lost, nothing doubled" in output
