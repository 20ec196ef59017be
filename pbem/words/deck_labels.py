"""A Babel extractor for the cards' printed names: each `label` of the game's own decks (engine/decks/*.py) and
of the board cards (engine/cards.py), as a message in the context "card" (pbem/words/cards.py translates them).

babel.cfg: `[extractors] card_labels = pbem.words.deck_labels:extract` and `[card_labels: engine/decks/**.py]`,
`[card_labels: engine/cards.py]`.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

Found = tuple[int, str, tuple[str, str], list[str]]
LABEL_ARGUMENT = 2  # CardType(name, kind, label, ...)


def extract(fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str],
            options: Mapping[str, Any]) -> Iterator[Found]:
    """Every deck entry's "label" and every `CardType(...)`'s label, as `pgettext("card", label)`."""
    tree = ast.parse(fileobj.read())
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if _text(key) == "label" and _text(value) is not None:
                    yield node.lineno, "pgettext", ("card", str(_text(value))), []
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "CardType":
            if len(node.args) > LABEL_ARGUMENT and _text(node.args[LABEL_ARGUMENT]) is not None:
                yield node.lineno, "pgettext", ("card", str(_text(node.args[LABEL_ARGUMENT]))), []


def _text(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None
