"""The variants a host can choose and a host's own Saboteur 2 deck read from TOML (pbem/variants.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.decks import SABOTEUR2_DECK
from pbem.errors import ValidationError
from pbem.paths import REPO_ROOT
from pbem.variants import load_deck, parse_deck, variant_choices

SHIPPED_DECK_FILE = REPO_ROOT / "docs" / "decks" / "saboteur2.toml"


def test_the_variants_are_listed_with_their_player_ranges_and_whether_they_take_a_deck() -> None:
    choices = {choice.name: choice for choice in variant_choices()}

    assert list(choices) == ["base", "saboteur2"]
    assert (choices["base"].min_players, choices["base"].max_players, choices["base"].takes_deck) == (3, 10, False)
    assert (choices["saboteur2"].min_players, choices["saboteur2"].max_players) == (2, 12)
    assert choices["saboteur2"].takes_deck and choices["saboteur2"].title == "Saboteur 2"
    assert all(choice.description for choice in choices.values())


def test_the_deck_file_in_the_docs_is_exactly_the_shipped_deck() -> None:
    assert load_deck(SHIPPED_DECK_FILE) == SABOTEUR2_DECK


def test_a_host_deck_is_played_with_when_the_engine_accepts_it(tmp_path: Path) -> None:
    text = SHIPPED_DECK_FILE.read_text().replace('name = "bridge"\nlabel = "Bridge"\ncount = 2',
                                                 'name = "bridge"\nlabel = "Bridge"\ncount = 3')
    path = tmp_path / "mine.toml"
    path.write_text(text)

    deck = load_deck(path)
    game = engine.new_game(["Ann", "Bo"], seed=1, variant="saboteur2", options={"deck": deck})

    assert next(entry for entry in deck["paths"] if entry["name"] == "bridge")["count"] == 3
    assert engine.view(game, 0)["options"]["deck"] == "custom"


def test_a_deck_that_is_not_toml_is_refused_naming_the_file() -> None:
    with pytest.raises(ValidationError, match="mine.toml is not valid TOML"):
        parse_deck("[[paths]\nname = 1", "mine.toml")


def test_a_missing_or_binary_deck_file_is_refused_with_a_reason(tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match="cannot be read"):
        load_deck(tmp_path / "nowhere.toml")
    binary = tmp_path / "deck.toml"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ValidationError, match="not UTF-8"):
        load_deck(binary)
