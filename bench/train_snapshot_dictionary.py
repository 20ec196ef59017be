"""Train the preset deflate dictionaries of stored snapshots (pbem/snapshot_codec/) on bot games.

Plays games of 3 to 10 players of both variants with the engine's random bot and gathers, for each column
(state, move, events), the bytes that column deflates. A dictionary is built from the substrings found in
many of them: every sample is cut into overlapping pieces, each piece scored by how many samples hold it
times its length, and the best pieces kept (most frequent last, where deflate reaches them with the shortest
distances) up to `--size` bytes.

    .venv/bin/python -m bench.train_snapshot_dictionary [--games 4] [--size 16384] [--out DIR] [--short]

A released dictionary never changes (old payloads name it): train into a new version's folder, and give the
codec that version for new payloads.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import engine
from bench.short import parse_args
from pbem import snapshot_codec

CONFIGS = [(players, variant) for players in (3, 4, 5, 6, 7, 8, 9, 10) for variant in ("base", "saboteur2")]
# Names are made up per game: a dictionary that knew the benchmark's players by name would flatter it.
SYLLABLES = ("ka", "ri", "mo", "an", "el", "su", "to", "vi", "na", "lo", "be", "dra", "gim", "thor", "in")
PIECE = 24  # bytes in a scored piece
STEP = 4  # a piece starts every STEP bytes of a sample


def bot_game(players: int, variant: str, seed: int) -> Iterator[tuple[dict[str, Any], Any, list[Any]]]:
    """Each snapshot of one game played to the end by the random bot: (state, move, events)."""
    rng = random.Random(seed)
    names = [f"{''.join(rng.choices(SYLLABLES, k=rng.randint(1, 3))).title()} {seat}" for seat in range(players)]
    state = engine.new_game(names, seed=seed, variant=variant)
    yield state.to_dict(), None, []
    while (seat := engine.to_act(state)) is not None:
        move = engine.bots.choose(state, seat, rng)
        state, events = engine.apply_move(state, seat, move)
        yield state.to_dict(), move, events


def values(games: int, first_seed: int) -> dict[str, list[Any]]:
    """Each column's values over `games` games of every configuration."""
    gathered: dict[str, list[Any]] = {kind: [] for kind in snapshot_codec.KINDS}
    for number, (players, variant) in enumerate(CONFIGS):
        for game in range(games):
            for state, move, events in bot_game(players, variant, first_seed + number * 1000 + game):
                gathered["state"].append(state)
                if move is not None:
                    gathered["move"].append(move)
                gathered["events"].append(events)
    return gathered


def samples(games: int, first_seed: int) -> dict[str, list[bytes]]:
    """The training bytes of each column over `games` games of every configuration."""
    return {kind: snapshot_codec.training_texts(kind, found) for kind, found in values(games, first_seed).items()}


def vocabulary(found: list[Any]) -> dict[str, list[Any]]:
    """The words (keys and strings) and templates (a dict's keys in order) met more than once in `found`, most
    frequent first, the kind each template's values mostly are and the value a key holds in most of them: what
    the codec's typed values name by place."""
    words: Counter[str] = Counter()
    templates: Counter[tuple[str, ...]] = Counter()
    kinds: dict[tuple[str, ...], list[Counter[int]]] = {}
    small: dict[tuple[str, ...], list[Counter[str]]] = {}  # of each key, the JSON of its small values

    def visit(value: Any) -> None:
        if isinstance(value, str):
            words[value] += 1
        elif isinstance(value, list):
            for item in value:
                visit(item)
        elif isinstance(value, dict):
            templates[tuple(value)] += 1
            seen = kinds.setdefault(tuple(value), [Counter() for _ in value])
            for counter, item in zip(seen, value.values(), strict=True):
                counter[snapshot_codec.value_kind(item)] += 1
            held = small.setdefault(tuple(value), [Counter() for _ in value])
            for texts, item in zip(held, value.values(), strict=True):
                if item in ([], {}) or not isinstance(item, list | dict):
                    texts[json.dumps(item)] += 1
            for key, item in value.items():
                words[key] += 1
                visit(item)

    for value in found:
        visit(value)
    chosen = [keys for keys, count in templates.most_common() if count > 1]
    return {"words": [word for word, count in words.most_common() if count > 1],
            "templates": [list(keys) for keys in chosen],
            "kinds": [[counter.most_common(1)[0][0] for counter in kinds[keys]] for keys in chosen],
            "usual": [[usual(texts, templates[keys]) for texts in small[keys]] for keys in chosen]}


def usual(counter: Counter[str], times: int) -> list[Any]:
    """The value a template's key holds in most of its dicts, as [value], or [] if none does."""
    common = counter.most_common(1)
    if not common or 2 * common[0][1] < times:
        return []
    return [json.loads(common[0][0])]


def build(texts: list[bytes], size: int) -> bytes:
    """A dictionary of at most `size` bytes from the pieces most samples share."""
    seen: Counter[bytes] = Counter()
    for text in texts:
        seen.update({text[start:start + PIECE] for start in range(0, max(1, len(text) - PIECE + 1), STEP)})
    ranked = [piece for piece, count in seen.most_common() if count > 1]
    chosen: list[bytes] = []
    total = 0
    held = b""
    for piece in ranked:
        if piece in held:
            continue
        if total + len(piece) > size:
            break
        chosen.append(piece)
        total += len(piece)
        if len(chosen) % 64 == 0:
            held = b"".join(chosen)
    return b"".join(reversed(chosen))


def sizes(texts: list[bytes], zdict: bytes) -> float:
    import zlib

    def one(text: bytes) -> int:
        compressor = zlib.compressobj(9, zlib.DEFLATED, -15, 8, zlib.Z_DEFAULT_STRATEGY, zdict=zdict)
        return len(compressor.compress(text) + compressor.flush())

    return statistics.mean(one(text) for text in texts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games of each configuration to train on")
    parser.add_argument("--size", type=int, default=16384, help="bytes of each dictionary at most")
    parser.add_argument("--seed", type=int, default=9000, help="first seed of the training games")
    parser.add_argument("--out", type=Path, default=None, help="folder to write state/move/events.zdict into")
    parser.add_argument("--vocabulary", type=Path, default=None,
                        help="folder to write vocabulary.json (the words formats 4 and 5 name by place) into")
    args = parse_args(parser, games=1, size=2048)
    if args.vocabulary is not None:
        found = values(args.games, args.seed)
        args.vocabulary.mkdir(parents=True, exist_ok=True)
        # the states' JSON parts without the players' names (made up per game: no name is in the vocabulary)
        skeletons = [skeleton[:1] + skeleton[2:] for skeleton in map(json.loads, snapshot_codec.training_texts(
            "state", found["state"]))]
        words = vocabulary(found["move"] + found["events"] + skeletons)
        (args.vocabulary / "vocabulary.json").write_text(json.dumps(words, indent=0) + "\n", "utf-8")
        print(f"vocabulary: {len(words['words'])} words, {len(words['templates'])} templates")
        return
    train = samples(args.games, args.seed)
    held_out = samples(1, args.seed + 500)
    for kind, texts in train.items():
        zdict = build(texts, args.size)
        print(f"{kind:<7} {len(texts):6} samples, dictionary {len(zdict):6} B: held-out games' mean "
              f"{statistics.mean(map(len, held_out[kind])):7.1f} B raw, {sizes(held_out[kind], zdict):6.1f} B deflated "
              "with it")
        if args.out is not None:
            args.out.mkdir(parents=True, exist_ok=True)
            (args.out / f"{kind}.zdict").write_bytes(zdict)


if __name__ == "__main__":
    main()
