"""What one replay step shows, and the replay as one HTML file that opens offline.

Built only from a `ReplayStep` (pbem/service/history/replay.py), whose view is the seat's own (`engine.view`) while
the game runs, the public one for a host, or `engine.open_view` once the game is over. The board and the
cards are drawn by the turn page's own drawing code.

The offline file holds every step. Drawn one by one, a long game would weigh many megabytes, yet one step
differs from the next by a card or two: each step's HTML is cut into pieces (a card, a list item, a line),
each distinct piece is stored once, and a step is the list of its pieces (`pack_steps`); the file's script
joins them back. The same script pages the live replay, fetching each step from the server instead.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import render_template
from markupsafe import Markup

import engine
from pbem.drawing import STYLESHEET as DRAWING_STYLESHEET
from pbem.drawing.card_art import card_svg
from pbem.i18n import gettext
from pbem.service.history.replay import ReplayStep
from pbem.times import local_time
from pbem.web.moves import goal_names
from pbem.words.board import drawn_board, drawn_words
from pbem.words.cards import card_name, tool_name
from pbem.words.roles import role_name

STATIC = Path(__file__).parent / "static"
# In the order the page links them: the drawing's own after play.css.
OFFLINE_STYLES = (STATIC / "site.css", STATIC / "play.css", DRAWING_STYLESHEET, STATIC / "replay.css")
OFFLINE_SCRIPT = "replay.js"
# Where a step's HTML is cut into reusable pieces: before each card on the board, list item, paragraph...
PIECE_START = re.compile(
    r'(?=<g class="(?:cell|grid|axis|targets)|<title|<rect class="last|<li|<p[ >]|<section|<div|<ul|<h[1-3]'
    r"|</ul|</section|</div)"
)

StepUrl = Callable[[int], str]


@dataclass(frozen=True)
class HandShown:
    name: str
    role: str | None  # shown once the game is over
    is_viewer: bool
    cards: list[tuple[engine.CardInfo, Markup, str]]  # each card, drawn, and its printed name


@dataclass(frozen=True)
class SeatShown:
    name: str
    role: str | None
    to_act: bool
    hand_count: int
    broken: list[str]
    gold: int | None  # totals, once the game is over


@dataclass(frozen=True)
class ReplayPage:
    step: ReplayStep
    eyes: str
    when: str
    board: Markup
    hands: list[HandShown]
    seats: list[SeatShown]
    goals: list[str]
    rounds: list[tuple[int, int]]  # (round, first step)
    ended: tuple[int, Markup] | None = None  # a round this step ended, and its table as it ended

    @property
    def hand_title(self) -> str:
        return gettext("Every hand") if self.step.open else gettext("Your hand")


def replay_page(step: ReplayStep, zone_name: str = "UTC") -> ReplayPage:
    view = step.view
    names = step.players
    return ReplayPage(
        step=step,
        eyes=_eyes(step),
        when=local_time(step.entry.when, zone_name),
        board=drawn_board(view),
        hands=_hands(step),
        seats=[
            SeatShown(
                name=names[row["seat"]],
                role=_role(row["role"]) if step.open else None,
                to_act=row["to_act"],
                hand_count=row["hand_count"],
                broken=[tool_name(tool) for tool in row["broken"]],
                gold=row["gold_total"] if step.open else None,
            )
            for row in view["seats"]
        ],
        goals=_goals(view) if step.open else [],
        rounds=sorted(step.round_starts.items()),
        ended=_ended(step),
    )


def _ended(step: ReplayStep) -> tuple[int, Markup] | None:
    """The round this step's move ended, drawn as it ended, when the same move dealt the next round."""
    table = step.ended_table
    if table is None:
        return None
    number, final = table
    return number, drawn_board(final, name="final-board", title=gettext("Round %(number)s as it ended", number=number))


def render_replay(step: ReplayStep, step_url: StepUrl, *, zone_name: str = "UTC", downloads: Any = None) -> str:
    """The replay page at one step; `step_url(k)` addresses step k (also for a host's pages)."""
    return render_template(
        "play/replay.html",
        r=replay_page(step, zone_name),
        step_url=step_url,
        form_action=step_url(step.step),
        downloads=downloads,
    )


def render_step(page: ReplayPage, step_url: StepUrl) -> str:
    return render_template("play/_replay_step.html", r=page, step_url=step_url, form_action="")


def offline_replay(steps: Sequence[ReplayStep]) -> str:
    """One HTML file with every step, its styles and its script inline, for a game that is over."""
    pages = [replay_page(step) for step in steps]
    rendered = [render_step(page, _offline_url) for page in pages]
    pieces, packed = pack_steps(rendered)
    data = json.dumps({"pieces": pieces, "steps": packed}, separators=(",", ":"))
    return render_template(
        "play/replay_file.html",
        r=pages[-1],
        first=Markup(rendered[0]),
        styles=Markup("\n".join(path.read_text(encoding="utf-8") for path in OFFLINE_STYLES)),
        script=Markup(_script_safe((STATIC / OFFLINE_SCRIPT).read_text(encoding="utf-8"))),
        data=Markup(_script_safe(data)),
    )


def pack_steps(rendered: Iterable[str]) -> tuple[list[str], list[list[int]]]:
    """Distinct pieces, and each step as the indexes of its pieces in order ("".join gives it back)."""
    index: dict[str, int] = {}
    pieces: list[str] = []
    packed = []
    for html in rendered:
        step = []
        for piece in PIECE_START.split(html):
            if not piece:
                continue
            number = index.get(piece)
            if number is None:
                number = index[piece] = len(pieces)
                pieces.append(piece)
            step.append(number)
        packed.append(step)
    return pieces, packed


def _offline_url(step: int) -> str:
    return f"#step-{step}"


def _script_safe(text: str) -> str:
    """Script or JSON that cannot end the <script> element it is written into (both escapes mean the same
    characters inside a JavaScript or JSON string)."""
    return text.replace("</", "<\\/").replace("<!--", "\\u003c!--")


def _eyes(step: ReplayStep) -> str:
    if step.open:
        return gettext("The game is over: every hand, role and goal is shown.")
    if step.seat is None:
        return gettext("What the whole table could see (hands and roles stay hidden until the game is over).")
    return gettext("As %(name)s saw it: your own cards and what you were told, nothing more.",
                   name=step.players[step.seat])


def _hands(step: ReplayStep) -> list[HandShown]:
    view = step.view
    if step.open:
        return [
            HandShown(
                name=step.players[row["seat"]],
                role=_role(row["role"]),
                is_viewer=row["seat"] == step.seat,
                cards=_cards(row["hand"] or []),  # None: hands kept private
            )
            for row in view["seats"]
        ]
    you = view.get("you")
    if not you:
        return []
    return [
        HandShown(
            name=you["name"],
            role=_role(you["role"]),
            is_viewer=True,
            cards=_cards(you["hand"]),
        )
    ]


def _cards(cards: Sequence[engine.CardInfo]) -> list[tuple[engine.CardInfo, Markup, str]]:
    return [(card, card_svg(card, words=drawn_words()), card_name(card)) for card in cards]


def _goals(view: engine.View) -> list[str]:
    names = goal_names(view)
    return [_goal_line(names.get((goal["x"], goal["y"]), ""), bool(goal["gold"]), bool(goal["revealed"]))
            for goal in view["goals"]]


def _goal_line(place: str, gold: bool, revealed: bool) -> str:
    if revealed:
        return gettext("The %(place)s goal: gold", place=place) if gold else gettext(
            "The %(place)s goal: stone", place=place)
    return gettext("The %(place)s goal: gold (face down)", place=place) if gold else gettext(
        "The %(place)s goal: stone (face down)", place=place)


def _role(role: str | None) -> str:
    if role is None:  # a dwarf card its holder later gives up to Swap Your Hats: never shown (engine.open_view)
        return gettext("Dwarf card later given up face down")
    name = role_name(role)
    return name[0].upper() + name[1:]
