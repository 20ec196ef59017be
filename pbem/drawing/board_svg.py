"""The board as inline SVG, drawn from a seat's view and nothing else.

Columns run west to east (x), rows north to south (y falls down the page), one card per cell, with a
margin of one empty cell around the cards on the table (every legal placement touches one) and room for
the goals.
Each card carries its cell (`data-x`, `data-y`) and, when it lies face up, its card id (public: ids name
the physical card, not its place in the shuffle). Face-down goals carry nothing but their cell. The page's
script reads the frame from the `<svg>`'s data attributes to light up legal targets.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from markupsafe import Markup

from pbem.drawing.card_art import CARD_H, CARD_W, ENGLISH, DrawnWords, card_group, goal_back, goal_face

LABEL = 24  # room for the coordinates along the top and the left
# Columns beyond this make the board scroll sideways on a phone instead of shrinking past reading.
WIDE_COLUMNS = 13


@dataclass(frozen=True)
class Frame:
    min_x: int
    max_x: int
    min_y: int
    max_y: int

    @property
    def columns(self) -> int:
        return self.max_x - self.min_x + 1

    @property
    def rows(self) -> int:
        return self.max_y - self.min_y + 1

    def left(self, x: int) -> int:
        return LABEL + (x - self.min_x) * CARD_W

    def top(self, y: int) -> int:
        return LABEL + (self.max_y - y) * CARD_H


def frame_of(view: Mapping[str, Any]) -> Frame:
    """Every card with one empty cell around it (where the next card may go), and the goals."""
    around = [(card["x"] + dx, card["y"] + dy) for card in view["board"] for dx, dy in ((-1, -1), (1, 1))]
    cells = around + [(goal["x"], goal["y"]) for goal in view["goals"]] or [(0, 0)]
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    return Frame(min(xs), max(xs), min(ys), max(ys))


def board_svg(
    view: Mapping[str, Any], *, name: str = "board", title: str = "The tunnel", caption: str | None = None,
    words: DrawnWords = ENGLISH,
) -> Markup:
    """`name` sets the drawing's id prefix and class: the board in play is "board"; another drawn on the same page
    (a round's final table) takes its own, so the page's script and ids find the board in play alone.

    `caption`: the picture's whole title in the reader's words (else English: `title` and the count of cards);
    `words`: what the cards show and say, in the reader's words (else English)."""
    frame = frame_of(view)
    width = LABEL + frame.columns * CARD_W
    height = LABEL + frame.rows * CARD_H
    last = tuple(view["last_placed"]) if view.get("last_placed") else None
    parts: list[Markup] = [
        Markup('<title id="{}-title">{}</title>').format(
            name, caption if caption is not None else f"{title}: {len(view['board'])} cards on the table"),
        _grid(frame),
        _labels(frame),
    ]
    for card in view["board"]:
        cell = (card["x"], card["y"])
        classes = "cell card" + (" last" if cell == last else "")
        parts.append(_placed(frame, cell, classes, card_group(card, words), card_id=card["id"]))
    over = view.get("phase") == "over"
    for goal in view["goals"]:
        if goal["revealed"]:
            continue  # a turned-over goal lies on the board like any card
        cell = (goal["x"], goal["y"])
        if over:
            parts.append(_placed(frame, cell, "cell goal shown", _goal_shown(bool(goal["gold"]), words)))
        else:
            seen = bool(goal.get("seen"))
            art = goal_back(bool(goal["gold"]) if seen else None, words)
            parts.append(_placed(frame, cell, "cell goal hidden" + (" seen" if seen else ""), art))
    if last is not None:
        parts.append(_last_marker(frame, last))
    parts.append(Markup('<g class="targets"></g>'))
    wide = " board-wide" if frame.columns > WIDE_COLUMNS else ""
    drawing = Markup("".join(parts))  # every part is markup already
    return Markup(
        '<svg class="{}{}" viewBox="0 0 {} {}" role="img" aria-labelledby="{}-title" '
        'data-min-x="{}" data-max-y="{}" data-cell-w="{}" data-cell-h="{}" data-margin="{}">{}</svg>'
    ).format(name, wide, width, height, name, frame.min_x, frame.max_y, CARD_W, CARD_H, LABEL, drawing)


def _placed(frame: Frame, cell: tuple[int, int], classes: str, art: Markup, *, card_id: int | None = None) -> Markup:
    # The classes are this module's own words and the rest whole numbers: nothing here needs escaping.
    x, y = int(cell[0]), int(cell[1])
    card = f' data-card="{int(card_id)}"' if card_id is not None else ""
    return Markup(
        f'<g class="{classes}" data-x="{x}" data-y="{y}"{card} transform="translate({frame.left(x)} {frame.top(y)})">'
        f"{art}</g>"
    )


@lru_cache(maxsize=16)
def _goal_shown(gold: bool, words: DrawnWords = ENGLISH) -> Markup:
    """A goal face up once the game is over (a stone's tunnel stays unknown: it was never laid)."""
    return goal_face(gold, [{"edges": "NESW"}] if gold else [], words)


@lru_cache(maxsize=64)
def _grid(frame: Frame) -> Markup:
    # Only numbers go into these strings, so they need no escaping (and the grid is the board's bulk).
    size = f'width="{CARD_W - 6}" height="{CARD_H - 6}" rx="5"'
    cells = "".join(
        f'<rect class="slot" x="{frame.left(x) + 3}" y="{frame.top(y) + 3}" {size}/>'
        for x in range(frame.min_x, frame.max_x + 1)
        for y in range(frame.min_y, frame.max_y + 1)
    )
    return Markup(f'<g class="grid">{cells}</g>')


@lru_cache(maxsize=64)
def _labels(frame: Frame) -> Markup:
    columns = "".join(
        f'<text x="{frame.left(x) + CARD_W // 2}" y="18">{x}</text>' for x in range(frame.min_x, frame.max_x + 1)
    )
    rows = "".join(
        f'<text x="12" y="{frame.top(y) + CARD_H // 2 + 5}">{y}</text>' for y in range(frame.min_y, frame.max_y + 1)
    )
    return Markup(f'<g class="axis" aria-hidden="true">{columns}{rows}</g>')


def _last_marker(frame: Frame, cell: tuple[int, int]) -> Markup:
    x, y = cell
    return Markup('<rect class="last-marker" x="{}" y="{}" width="{}" height="{}" rx="6"/>').format(
        frame.left(x) + 1, frame.top(y) + 1, CARD_W - 2, CARD_H - 2
    )
