"""Places on the table in words: the three goals, a card's four sides."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.i18n import gettext
from pbem.words.table import NP_, WordRow, Words

# The three goals, top to bottom (goal rows y = 2, 0, -2).
GOAL_PLACES = WordRow(NP_("goal", "top"), NP_("goal", "middle"), NP_("goal", "bottom"))
GOAL_ROWS = (2, 0, -2)
# A card edge by its letter (N, E, S, W): the top, right, bottom and left side of a card as it lies.
SIDE_NAMES = Words({"N": NP_("card side", "top"), "E": NP_("card side", "right"), "S": NP_("card side", "bottom"),
                    "W": NP_("card side", "left")})


def goal_place(goal: Mapping[str, Any]) -> str:
    """ "top", "middle", "bottom" for a goal (an event or record with its `x` and `y`), else its cell."""
    y = goal.get("y", 0)
    if y in GOAL_ROWS:
        return GOAL_PLACES[GOAL_ROWS.index(y)]
    return gettext("(%(x)s, %(y)s)", x=goal.get("x"), y=y)


def side_name(letter: str) -> str:
    """A card edge by its letter (N, E, S, W): top, right, bottom, left."""
    return SIDE_NAMES[letter]
