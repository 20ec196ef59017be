"""The words the board's drawing shows and says, in the reader's language: the picture's title (its text for
screen readers) and what the cards carry (a goal's mark, a map's peek, Saboteur 2's captions, the tools).

The drawing itself (pbem/drawing/) knows no language; pages and emails draw a board through `drawn_board`.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from markupsafe import Markup

from pbem.drawing.board_svg import board_svg
from pbem.drawing.card_art import DrawnWords
from pbem.i18n import current_language, gettext, ngettext, pgettext
from pbem.words.cards import TOOL_NAMES, tool_name
from pbem.words.table import NP_, Words


def drawn_board(view: Mapping[str, Any], *, name: str = "board", title: str | None = None) -> Markup:
    """The board of `view` drawn with the reader's words; `title` names another board than the one in play (a
    round as it ended)."""
    return board_svg(view, name=name, caption=board_caption(view, title), words=drawn_words())


def board_caption(view: Mapping[str, Any], title: str | None = None) -> str:
    """The board picture's title (its text for screen readers): "The tunnel: 5 cards on the table"."""
    count = len(view["board"])
    if title is None:
        return ngettext("The tunnel: %(num)d card on the table", "The tunnel: %(num)d cards on the table", count)
    return ngettext("%(title)s: %(num)d card on the table", "%(title)s: %(num)d cards on the table", count,
                    title=title)


# The word on each of Saboteur 2's action cards (pbem/drawing/card_art.py draws it), short enough for a card.
CARD_CAPTIONS = Words({
    "theft": NP_("card caption", "THEFT"), "hands_off": NP_("card caption", "HANDS OFF"),
    "swap_hand": NP_("card caption", "SWAP HAND"), "inspection": NP_("card caption", "INSPECT"),
    "swap_hats": NP_("card caption", "SWAP HATS"), "trapped": NP_("card caption", "TRAPPED"),
    "free": NP_("card caption", "FREE"),
})


def drawn_words() -> DrawnWords:
    """The words drawn on the cards, in the reader's language (the drawing itself knows no language)."""
    return _drawn_words(current_language())


@lru_cache(maxsize=8)
def _drawn_words(language: str) -> DrawnWords:
    return DrawnWords(
        gold=pgettext("peek", "gold"),
        stone=pgettext("peek", "stone"),
        gold_mark=pgettext("goal card", "GOLD"),
        captions=tuple((effect, CARD_CAPTIONS[effect]) for effect in CARD_CAPTIONS),
        tools=tuple((tool, tool_name(tool)) for tool in TOOL_NAMES),
        broken_tool=gettext("broken %(tool)s", tool="{tool}"),
    )
