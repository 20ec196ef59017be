"""Drawing one card as SVG from what a view says about it: tunnels from segments, icons for actions.

Every card is drawn in the same frame, `CARD_W` x `CARD_H` units with the origin at its top-left corner, so
the board places a card with one `translate` and the page's script can lay a hand card on the board as a
preview (turned 180 degrees around the card's centre). Saboteur 2's extras (doors, ladders, crystals)
are drawn from the segment fields when present.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from markupsafe import Markup, escape

CARD_W = 60
CARD_H = 88
TUNNEL = 16
INSET = 2
CENTRE = (CARD_W / 2, CARD_H / 2)
EDGE_POINT = {
    "N": (CARD_W / 2, 0.0),
    "E": (float(CARD_W), CARD_H / 2),
    "S": (CARD_W / 2, float(CARD_H)),
    "W": (0.0, CARD_H / 2),
}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
# How far a dead-end stub reaches from its edge toward the centre.
STUB = 0.42
# On a card with two curves, how far each curve runs straight in from its edges before it turns.
APART_REACH = 16
DOOR_COLOURS = {"green": "#3f8f4f", "blue": "#3b6fb6", "red": "#b5483b", "yellow": "#d8b23a"}

BODY = {"path": "card-earth", "start": "card-start", "action": "card-action"}
EFFECT_CLASS = {
    "break": "card-break", "repair": "card-repair", "rockfall": "card-rockfall", "map": "card-map",
    "theft": "card-theft", "hands_off": "card-hands-off", "swap_hand": "card-swap-hand",
    "inspection": "card-inspection", "swap_hats": "card-swap-hats", "trapped": "card-trapped", "free": "card-free",
}
# A word on Saboteur 2's action cards, so a card lying in front of a player reads at a glance.
CAPTIONS = {
    "theft": "THEFT", "hands_off": "HANDS OFF", "swap_hand": "SWAP HAND", "inspection": "INSPECT",
    "swap_hats": "SWAP HATS", "trapped": "TRAPPED", "free": "FREE",
}
TOOLS = ("pick", "lantern", "cart")


@dataclass(frozen=True)
class DrawnWords:
    """The words a drawing shows or says: English, unless the caller gives its reader's (this package knows no
    language; pbem/web/turn_page.py's `drawn_words` gives them in the reader's). Hashable, so drawings stay cached."""

    gold: str = "gold"  # a face-down goal this seat looked at
    stone: str = "stone"
    gold_mark: str = "GOLD"  # on a goal card with the gold
    captions: tuple[tuple[str, str], ...] = tuple(CAPTIONS.items())  # by effect
    tools: tuple[tuple[str, str], ...] = tuple((tool, tool) for tool in TOOLS)  # a tool icon's name, by tool
    broken_tool: str = "broken {tool}"  # a broken tool icon's name

    def caption(self, effect: str) -> str | None:
        return dict(self.captions).get(effect)

    def tool(self, tool: str) -> str:
        return dict(self.tools).get(tool, tool)


ENGLISH = DrawnWords()


def card_group(info: Mapping[str, Any], words: DrawnWords = ENGLISH) -> Markup:
    """The drawing of a path, start, goal or action card, as a `<g>` in the card frame."""
    return _drawn(_looks(info), words)


def _looks(info: Mapping[str, Any]) -> tuple[Any, ...]:
    """What a card's drawing depends on, as a hashable key (the same card is drawn many times a page)."""
    segments = tuple(
        (str(s.get("edges", "")), bool(s.get("dead")), s.get("door"), bool(s.get("ladder")))
        for s in info.get("segments", ())
    )
    return (
        info.get("kind"),
        segments,
        int(info.get("crystals", 0) or 0),
        bool(info.get("gold")),
        info.get("effect"),
        tuple(info.get("tools", ())),
    )


@lru_cache(maxsize=512)
def _drawn(looks: tuple[Any, ...], words: DrawnWords = ENGLISH) -> Markup:
    kind, segments, crystals, gold, effect, tools = looks
    info = {
        "kind": kind,
        "crystals": crystals,
        "gold": gold,
        "effect": effect,
        "tools": tools,
        "segments": [
            {"edges": edges, "dead": dead, "door": door, "ladder": ladder} for edges, dead, door, ladder in segments
        ],
    }
    return _draw(info, words)


def _draw(info: Mapping[str, Any], words: DrawnWords) -> Markup:
    kind = info.get("kind")
    if kind == "goal":
        return goal_face(bool(info.get("gold")), info.get("segments", ()), words)
    if kind == "action":
        return _action(info, words)
    parts = [_body(BODY.get(str(kind), "card-earth"))]
    parts.extend(_tunnels(info.get("segments", ())))
    parts.extend(_crystals(int(info.get("crystals", 0) or 0), info.get("segments", ())))
    if kind == "start":
        parts.append(_ladder(CENTRE[0], CENTRE[1]))
    return Markup('<g class="art">{}</g>').format(Markup("").join(parts))


def card_svg(info: Mapping[str, Any], *, css_class: str = "card-art", words: DrawnWords = ENGLISH) -> Markup:
    """A card on its own, as a small `<svg>` (a hand card, a card in front of a player)."""
    return _alone(css_class, _looks(info), words)


@lru_cache(maxsize=1024)
def _alone(css_class: str, looks: tuple[Any, ...], words: DrawnWords = ENGLISH) -> Markup:
    return Markup('<svg class="{}" viewBox="0 0 {} {}" aria-hidden="true" focusable="false">{}</svg>').format(
        css_class, CARD_W, CARD_H, _drawn(looks, words)
    )


@lru_cache(maxsize=16)
def goal_back(peeked_gold: bool | None, words: DrawnWords = ENGLISH) -> Markup:
    """A face-down goal; `peeked_gold` is what this seat saw with a map (None: it has not looked)."""
    parts = [
        _body("card-back"),
        Markup('<text class="goal-mark" x="{}" y="{}">?</text>').format(CENTRE[0], CENTRE[1] + 10),
    ]
    if peeked_gold is not None:
        label = words.gold if peeked_gold else words.stone
        parts.append(
            Markup(
                '<g class="peek peek-{0}"><rect x="6" y="{1}" width="48" height="18" rx="9"/>'
                '<text x="30" y="{2}">{0}</text></g>'
            ).format(label, CARD_H - 26, CARD_H - 13)
        )
    return Markup('<g class="art">{}</g>').format(Markup("").join(parts))


def goal_face(gold: bool, segments: Iterable[Mapping[str, Any]], words: DrawnWords = ENGLISH) -> Markup:
    """A goal turned over (or shown at the end): the gold, or a stone with its tunnel."""
    parts = [_body("card-gold" if gold else "card-stone")]
    parts.extend(_tunnels(segments))
    if gold:
        parts.append(_nugget(words.gold_mark))
    return Markup('<g class="art">{}</g>').format(Markup("").join(parts))


@lru_cache(maxsize=64)
def tool_icon(tool: str, *, broken: bool, words: DrawnWords = ENGLISH) -> Markup:
    """A small tool picture for the list of players (a broken one is struck through); drawn once per kind."""
    slash = Markup('<path class="strike" d="M14 26 L46 66"/>') if broken else Markup("")
    return Markup('<svg class="tool-icon{}" viewBox="10 22 40 48" role="img" aria-label="{}">{}{}</svg>').format(
        " broken" if broken else "", words.broken_tool.format(tool=words.tool(tool)) if broken else words.tool(tool),
        _tool(tool), slash
    )


# -- pieces -------------------------------------------------------------------------------------------


def _body(css_class: str) -> Markup:
    return Markup('<rect class="body {}" x="{}" y="{}" width="{}" height="{}" rx="5"/>').format(
        css_class, INSET, INSET, CARD_W - 2 * INSET, CARD_H - 2 * INSET
    )


def _tunnels(segments: Iterable[Mapping[str, Any]]) -> list[Markup]:
    """Each segment joins its edges through the centre; dead stubs stop short against rock.

    A card with two tunnels (Saboteur 2's bridge and double curve) draws them one after the other, walls and
    floor together, so they stay visibly apart: a double curve's tunnels keep to their corners, and a bridge's
    second tunnel passes over the first with its walls cutting across it.
    """
    segments = [segment for segment in segments if str(segment.get("edges", ""))]
    tunnels = [segment for segment in segments if not segment.get("dead")]
    apart = len(tunnels) > 1
    layers: list[Markup] = []
    walls: list[Markup] = []
    floors: list[Markup] = []
    extras: list[Markup] = []
    crossed = False
    for segment in segments:
        edges = str(segment["edges"])
        dead = bool(segment.get("dead"))
        path = _stub(edges[0]) if dead else _through(edges, apart=apart)
        css = "tunnel"
        if apart and not dead and _is_straight(edges):
            css = "tunnel bridge-over" if crossed else "tunnel"
            crossed = True
        elif apart and not dead and len(edges) == 2:
            css = "tunnel curve-apart"
        wall = Markup('<path class="wall" d="{}"/>').format(path)
        floor = Markup('<path class="{}" d="{}"/>').format(css, path)
        hub: list[Markup] = []
        if not dead and len(edges) != 2:
            # Where three or four tunnels meet, or one ends inside the card: a round chamber.
            hub = [
                Markup('<circle class="wall-hub" cx="{:g}" cy="{:g}" r="{}"/>').format(*CENTRE, TUNNEL // 2 + 3),
                Markup('<circle class="hub" cx="{:g}" cy="{:g}" r="{}"/>').format(*CENTRE, TUNNEL // 2),
            ]
        if apart and not dead:
            layers.extend([wall, floor, *hub])
            if css == "tunnel bridge-over":
                layers.append(_planks(edges))
        else:
            walls.append(wall)
            floors.append(floor)
            if hub:
                walls.append(hub[0])
                floors.append(hub[1])
        if dead:
            extras.append(_rock(edges[0]))
        if segment.get("ladder"):
            extras.append(_ladder(*_tunnel_point(edges, apart=apart, ladder=True)))
        if segment.get("door"):
            extras.append(_door(str(segment["door"]), *_tunnel_point(edges, apart=apart)))
    return walls + floors + layers + extras


def _is_straight(edges: str) -> bool:
    return len(edges) == 2 and OPPOSITE[edges[0]] == edges[1]


def _through(edges: str, *, apart: bool = False) -> str:
    points = [EDGE_POINT[edge] for edge in edges]
    cx, cy = CENTRE
    if _is_straight(edges):
        (x1, y1), (x2, y2) = points
        return f"M{x1:g} {y1:g} L{x2:g} {y2:g}"
    if len(edges) == 2 and apart:
        (x1, y1), (a, b), (c, d), (x2, y2) = _curve_apart(edges)
        return f"M{x1:g} {y1:g} C{a:g} {b:g} {c:g} {d:g} {x2:g} {y2:g}"
    if len(edges) == 2:
        (x1, y1), (x2, y2) = points
        return f"M{x1:g} {y1:g} Q{cx:g} {cy:g} {x2:g} {y2:g}"
    # One edge (a tunnel ending in the card) or a junction of three or four.
    return " ".join(f"M{x:g} {y:g} L{cx:g} {cy:g}" for x, y in points)


def _curve_apart(edges: str) -> tuple[tuple[float, float], ...]:
    """A curve on a card with two tunnels, as a cubic: it leaves each edge straight inward and turns close to
    its own corner, so the two curves of a double curve never touch."""
    ends = [EDGE_POINT[edge] for edge in edges]
    controls = []
    for edge, (x, y) in zip(edges, ends, strict=False):
        dx, dy = {"N": (0, 1), "S": (0, -1), "E": (-1, 0), "W": (1, 0)}[edge]
        controls.append((x + dx * APART_REACH, y + dy * APART_REACH))
    return ends[0], controls[0], controls[1], ends[1]


def _tunnel_point(edges: str, *, apart: bool = False, ladder: bool = False) -> tuple[float, float]:
    """Where a door or a ladder sits on its tunnel: the middle of a curve or straight; the chamber at the
    end of a one-edge tunnel (a ladder is a shaft there)."""
    if len(edges) == 1:
        return CENTRE if ladder else _midpoint(edges)
    if len(edges) == 2 and not _is_straight(edges):
        if apart:
            (x1, y1), (a, b), (c, d), (x2, y2) = _curve_apart(edges)
            return 0.125 * (x1 + x2) + 0.375 * (a + c), 0.125 * (y1 + y2) + 0.375 * (b + d)
        (x1, y1), (x2, y2) = (EDGE_POINT[edge] for edge in edges)
        return 0.25 * x1 + 0.5 * CENTRE[0] + 0.25 * x2, 0.25 * y1 + 0.5 * CENTRE[1] + 0.25 * y2
    return CENTRE


def _planks(edges: str) -> Markup:
    """Wooden planks across a bridge's upper tunnel where it passes over the other one."""
    cx, cy = CENTRE
    half = TUNNEL / 2
    if edges[0] in "NS":
        lines = " ".join(f"M{cx - half:g} {y:g} h{TUNNEL}" for y in range(int(cy) - 12, int(cy) + 13, 6))
    else:
        lines = " ".join(f"M{x:g} {cy - half:g} v{TUNNEL}" for x in range(int(cx) - 12, int(cx) + 13, 6))
    return Markup('<path class="bridge-plank" d="{}"/>').format(lines)


def _stub_end(edge: str) -> tuple[float, float]:
    (x, y), (cx, cy) = EDGE_POINT[edge], CENTRE
    return x + (cx - x) * STUB, y + (cy - y) * STUB


def _stub(edge: str) -> str:
    x, y = EDGE_POINT[edge]
    ex, ey = _stub_end(edge)
    return f"M{x:g} {y:g} L{ex:g} {ey:g}"


def _rock(edge: str) -> Markup:
    """The rock that closes a dead end, across the tunnel where the stub stops."""
    ex, ey = _stub_end(edge)
    across = edge in ("N", "S")
    width, height = (TUNNEL + 8, 7) if across else (7, TUNNEL + 8)
    return Markup('<rect class="rock" x="{:g}" y="{:g}" width="{}" height="{}" rx="2"/>').format(
        ex - width / 2, ey - height / 2, width, height
    )


def _midpoint(edges: str) -> tuple[float, float]:
    if len(edges) == 1:
        (x, y), (cx, cy) = EDGE_POINT[edges], CENTRE
        return (x + cx) / 2, (y + cy) / 2
    return CENTRE


def _door(colour: str, x: float, y: float) -> Markup:
    """A door across the tunnel, told apart by colour, by shape (blue: arched; green: square)
    and by its letter, so players who do not see the colours can read it too."""
    fill = DOOR_COLOURS.get(colour, "#777")
    letter = colour[:1].upper() if colour else "?"
    if colour == "blue":
        leaf = Markup('<path d="M{:g} {:g} v-10 a8 8 0 0 1 16 0 v10 z" fill="{}"/>').format(x - 8, y + 10, fill)
    else:
        leaf = Markup('<rect x="{:g}" y="{:g}" width="16" height="20" rx="1.5" fill="{}"/>').format(
            x - 8, y - 10, fill
        )
    return Markup(
        '<g class="door door-{}">{}<text class="door-letter" x="{:g}" y="{:g}">{}</text></g>'
    ).format(escape(colour), leaf, x, y + 5, letter)


def _ladder(x: float, y: float) -> Markup:
    """A shaft with a ladder down it: ladders join every other ladder and the start."""
    rungs = "".join(f"M{x - 5:g} {y + dy:g} L{x + 5:g} {y + dy:g} " for dy in (-7, -2, 3, 8))
    return Markup(
        '<g class="ladder-shaft"><ellipse class="shaft" cx="{:g}" cy="{:g}" rx="10" ry="13"/>'
        '<path class="ladder" d="M{:g} {:g} L{:g} {:g} M{:g} {:g} L{:g} {:g} {}"/></g>'
    ).format(x, y, x - 5, y - 12, x - 5, y + 12, x + 5, y - 12, x + 5, y + 12, rungs)


CORNERS = ((11.0, 13.0), (49.0, 13.0), (11.0, 75.0), (49.0, 75.0))


def _crystals(count: int, segments: Iterable[Mapping[str, Any]] = ()) -> list[Markup]:
    """Crystals in the corner farthest from every tunnel, one gem each (they change no connection)."""
    if count <= 0:
        return []
    x, y = _free_corner(segments)
    step = -9 if x > CENTRE[0] else 9
    gems = []
    for index in range(count):
        gx = x + step * (index % 2)
        gy = y + (-1 if y > CENTRE[1] else 1) * 12 * (index // 2)
        gems.append(
            Markup(
                '<g class="crystal-gem"><path class="crystal" d="M{0:g} {1:g} l5 5 l-2 9 h-6 l-2 -9 z"/>'
                '<path class="crystal-facet" d="M{0:g} {1:g} l-1 14 M{2:g} {3:g} h10"/></g>'
            ).format(gx, gy - 7, gx - 5, gy - 2)
        )
    return gems


def _free_corner(segments: Iterable[Mapping[str, Any]]) -> tuple[float, float]:
    points: list[tuple[float, float]] = []
    for segment in segments:
        edges = str(segment.get("edges", ""))
        for edge in edges:
            ex, ey = EDGE_POINT[edge]
            end = _stub_end(edge) if segment.get("dead") else CENTRE
            points.extend((ex + (end[0] - ex) * t / 4, ey + (end[1] - ey) * t / 4) for t in range(5))
    if not points:
        return CORNERS[0]
    return max(CORNERS, key=lambda c: min((c[0] - px) ** 2 + (c[1] - py) ** 2 for px, py in points))


def _nugget(mark: str) -> Markup:
    return Markup(
        '<path class="nugget" d="M22 50 q4 -12 14 -8 q10 2 6 12 q-4 8 -12 6 q-10 0 -8 -10 z"/>'
        '<text class="goal-word" x="30" y="78">{}</text>'
    ).format(mark)


# -- action cards -------------------------------------------------------------------------------------


def _action(info: Mapping[str, Any], words: DrawnWords) -> Markup:
    effect = str(info.get("effect", ""))
    tools = [str(tool) for tool in info.get("tools", ())]
    parts = [_body(EFFECT_CLASS.get(effect, "card-action"))]
    if effect in ("break", "repair") and tools:
        parts.append(_tool_row(tools))
        parts.append(_broken_mark() if effect == "break" else _repair_mark())
    elif effect == "rockfall":
        parts.append(_rockfall())
    elif effect == "map":
        parts.append(_map())
    elif effect in EXPANSION_ART:
        parts.append(Markup(EXPANSION_ART[effect]))
    word = words.caption(effect)
    if word:
        # Long words are fitted to the card's width rather than shrunk for everyone.
        fit = Markup(' textLength="50" lengthAdjust="spacingAndGlyphs"') if _width(word) > 7 else Markup("")
        parts.append(Markup('<text class="action-word" x="30" y="80"{}>{}</text>').format(fit, word))
    return Markup('<g class="art">{}</g>').format(Markup("").join(parts))


def _width(word: str) -> int:
    """A caption's width in narrow letters: a wide letter (Hangul, CJK) counts two."""
    return sum(2 if unicodedata.east_asian_width(letter) in "WF" else 1 for letter in word)


def _tool_row(tools: list[str]) -> Markup:
    if len(tools) == 1:
        return _tool(tools[0])
    return Markup("").join(
        Markup('<g transform="translate({:g} {:g}) scale(0.62)">{}</g>').format(offset, 18, _tool(tool))
        for offset, tool in zip((-2, 24), tools, strict=False)
    )


def _tool(tool: str) -> Markup:
    shapes = {
        "pick": '<path class="icon-line" d="M20 66 L40 32"/><path class="icon-line" d="M24 30 Q36 20 50 34"/>',
        "lantern": (
            '<path class="icon-line" d="M24 34 Q30 24 36 34"/><rect class="icon-fill" x="21" y="34" width="18" '
            'height="26" rx="4"/><path class="flame" d="M30 40 q5 6 0 12 q-5 -6 0 -12 z"/>'
        ),
        "cart": (
            '<path class="icon-fill" d="M16 38 L44 38 L40 58 L20 58 Z"/><circle class="icon-line" cx="24" cy="63" '
            'r="4"/><circle class="icon-line" cx="36" cy="63" r="4"/>'
        ),
    }
    return Markup(shapes.get(tool, ""))


def _broken_mark() -> Markup:
    return Markup('<path class="strike" d="M14 26 L46 66 M46 26 L14 66"/>')


def _repair_mark() -> Markup:
    return Markup('<g class="mend"><circle cx="46" cy="72" r="9"/><path d="M41 72 L51 72 M46 67 L46 77"/></g>')


def _rockfall() -> Markup:
    rocks = ((20, 60, 9), (38, 62, 10), (29, 46, 9), (45, 45, 6), (15, 44, 5))
    return Markup("").join(Markup('<circle class="boulder" cx="{}" cy="{}" r="{}"/>').format(*rock) for rock in rocks)


def _map() -> Markup:
    return Markup(
        '<rect class="parchment" x="12" y="24" width="36" height="42" rx="3"/>'
        '<path class="route" d="M18 60 Q24 44 32 48 Q40 52 40 34"/>'
        '<path class="strike" d="M36 30 L44 38 M44 30 L36 38"/>'
    )


# Saboteur 2's actions on players, drawn in the card frame above the caption (y below 70).
EXPANSION_ART = {
    # a masked thief's eyes over a gold piece
    "theft": (
        '<circle class="coin" cx="30" cy="50" r="13"/><text class="coin-mark" x="30" y="55">1</text>'
        '<path class="mask" d="M10 22 Q30 14 50 22 L48 32 Q30 38 12 32 Z"/>'
        '<ellipse class="mask-eye" cx="22" cy="26" rx="4.5" ry="3"/><ellipse class="mask-eye" cx="38" cy="26" '
        'rx="4.5" ry="3"/>'
    ),
    # a raised open hand: stop
    "hands_off": (
        '<path class="palm" d="M18 44 L18 24 Q18 20 21.5 20 Q25 20 25 24 L25 38 L25 16 Q25 12 28.5 12 Q32 12 32 '
        '16 L32 38 L32 18 Q32 14 35.5 14 Q39 14 39 18 L39 40 L39 26 Q39 22 42.5 22 Q46 22 46 26 L46 52 Q46 66 32 '
        '66 Q22 66 17 57 L10 45 Q8 41 12 40 Q15 39 18 44 Z"/>'
    ),
    # two hands of cards trading places
    "swap_hand": (
        '<g transform="rotate(-12 20 32)"><rect class="mini-card" x="10" y="18" width="16" height="23" rx="2"/>'
        '<rect class="mini-card" x="15" y="20" width="16" height="23" rx="2"/></g>'
        '<g transform="rotate(12 40 52)"><rect class="mini-card other" x="29" y="42" width="16" height="23" rx="2"/>'
        '<rect class="mini-card other" x="34" y="44" width="16" height="23" rx="2"/></g>'
        '<path class="swap-arrow" d="M40 16 Q52 22 48 36"/><path class="arrow-head" d="M43 33 L48 40 L53 33 Z"/>'
        '<path class="swap-arrow" d="M20 70 Q8 62 12 50"/><path class="arrow-head" d="M7 53 L12 46 L17 53 Z"/>'
    ),
    # a magnifying glass over a dwarf's hood
    "inspection": (
        '<path class="hood" d="M12 58 L26 20 L40 58 Z"/><path class="hood-band" d="M12 58 L40 58 L40 63 L12 63 Z"/>'
        '<circle class="lens" cx="38" cy="36" r="11"/><path class="lens-handle" d="M46 44 L54 54"/>'
    ),
    # a blue and a green hood trading places
    "swap_hats": (
        '<path class="hood hood-blue" d="M6 50 L16 22 L26 50 Z"/><path class="hood hood-green" d="M34 50 L44 22 '
        'L54 50 Z"/><path class="swap-arrow" d="M18 58 Q30 68 42 58"/><path class="arrow-head" d="M38 54 L45 57 '
        'L40 63 Z"/><path class="swap-arrow" d="M42 16 Q30 6 18 16"/><path class="arrow-head" d="M22 20 L15 17 '
        'L20 11 Z"/>'
    ),
    # cage bars with a padlock
    "trapped": (
        '<rect class="cage" x="11" y="14" width="38" height="52" rx="3"/>'
        '<path class="bars" d="M20 14 V66 M30 14 V66 M40 14 V66"/>'
        '<path class="shackle" d="M25 44 V38 Q30 31 35 38 V44"/><rect class="padlock" x="22" y="43" width="16" '
        'height="13" rx="2"/>'
    ),
    # the cage open, its padlock sprung
    "free": (
        '<path class="bars" d="M14 14 V66 M24 14 V66"/><path class="cage-line" d="M11 14 H27 M11 66 H27"/>'
        '<path class="shackle" d="M37 40 V32 Q42 25 47 32"/><rect class="padlock open" x="34" y="40" width="16" '
        'height="13" rx="2"/><path class="swap-arrow" d="M30 60 L50 60"/><path class="arrow-head" d="M47 55 '
        'L54 60 L47 65 Z"/>'
    ),
}
