"""Drawing one card as SVG from what a view says about it: tunnels from segments, icons for actions.

Every card is drawn in the same frame, `CARD_W` x `CARD_H` units with the origin at its top-left corner, so
the board places a card with one `translate` and the page's script can lay a hand card on the board as a
preview (turned 180 degrees around the card's centre). Saboteur 2's extras (doors, ladders, crystals)
are drawn from the segment fields when present.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
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
DOOR_COLOURS = {"green": "#3f8f4f", "blue": "#3b6fb6", "red": "#b5483b", "yellow": "#d8b23a"}

BODY = {"path": "card-earth", "start": "card-start", "action": "card-action"}
EFFECT_CLASS = {"break": "card-break", "repair": "card-repair", "rockfall": "card-rockfall", "map": "card-map"}


def card_group(info: Mapping[str, Any]) -> Markup:
    """The drawing of a path, start, goal or action card, as a `<g>` in the card frame."""
    return _drawn(_looks(info))


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
def _drawn(looks: tuple[Any, ...]) -> Markup:
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
    return _draw(info)


def _draw(info: Mapping[str, Any]) -> Markup:
    kind = info.get("kind")
    if kind == "goal":
        return goal_face(bool(info.get("gold")), info.get("segments", ()))
    if kind == "action":
        return _action(info)
    parts = [_body(BODY.get(str(kind), "card-earth"))]
    parts.extend(_tunnels(info.get("segments", ())))
    parts.extend(_crystals(int(info.get("crystals", 0) or 0)))
    if kind == "start":
        parts.append(_ladder(CENTRE[0], CENTRE[1]))
    return Markup('<g class="art">{}</g>').format(Markup("").join(parts))


def card_svg(info: Mapping[str, Any], *, css_class: str = "card-art") -> Markup:
    """A card on its own, as a small `<svg>` (a hand card, a card in front of a player)."""
    return Markup('<svg class="{}" viewBox="0 0 {} {}" aria-hidden="true" focusable="false">{}</svg>').format(
        css_class, CARD_W, CARD_H, card_group(info)
    )


def goal_back(peeked_gold: bool | None) -> Markup:
    """A face-down goal; `peeked_gold` is what this seat saw with a map (None: it has not looked)."""
    parts = [
        _body("card-back"),
        Markup('<text class="goal-mark" x="{}" y="{}">?</text>').format(CENTRE[0], CENTRE[1] + 10),
    ]
    if peeked_gold is not None:
        label = "gold" if peeked_gold else "stone"
        parts.append(
            Markup(
                '<g class="peek peek-{0}"><rect x="6" y="{1}" width="48" height="18" rx="9"/>'
                '<text x="30" y="{2}">{0}</text></g>'
            ).format(label, CARD_H - 26, CARD_H - 13)
        )
    return Markup('<g class="art">{}</g>').format(Markup("").join(parts))


def goal_face(gold: bool, segments: Iterable[Mapping[str, Any]]) -> Markup:
    """A goal turned over (or shown at the end): the gold, or a stone with its tunnel."""
    parts = [_body("card-gold" if gold else "card-stone")]
    parts.extend(_tunnels(segments))
    if gold:
        parts.append(_nugget())
    return Markup('<g class="art">{}</g>').format(Markup("").join(parts))


def tool_icon(tool: str, *, broken: bool) -> Markup:
    """A small tool picture for the list of players (a broken one is struck through)."""
    slash = Markup('<path class="strike" d="M14 26 L46 66"/>') if broken else Markup("")
    return Markup('<svg class="tool-icon{}" viewBox="10 22 40 48" role="img" aria-label="{}">{}{}</svg>').format(
        " broken" if broken else "", f"broken {tool}" if broken else tool, _tool(tool), slash
    )


# -- pieces -------------------------------------------------------------------------------------------


def _body(css_class: str) -> Markup:
    return Markup('<rect class="body {}" x="{}" y="{}" width="{}" height="{}" rx="5"/>').format(
        css_class, INSET, INSET, CARD_W - 2 * INSET, CARD_H - 2 * INSET
    )


def _tunnels(segments: Iterable[Mapping[str, Any]]) -> list[Markup]:
    """Each segment joins its edges through the centre; dead stubs stop short against rock."""
    walls: list[Markup] = []
    floors: list[Markup] = []
    extras: list[Markup] = []
    for segment in segments:
        edges = str(segment.get("edges", ""))
        if not edges:
            continue
        path = _stub(edges[0]) if segment.get("dead") else _through(edges)
        walls.append(Markup('<path class="wall" d="{}"/>').format(path))
        floors.append(Markup('<path class="tunnel" d="{}"/>').format(path))
        if not segment.get("dead") and len(edges) != 2:
            # Where three or four tunnels meet, or one ends inside the card: a round chamber.
            walls.append(
                Markup('<circle class="wall-hub" cx="{:g}" cy="{:g}" r="{}"/>').format(*CENTRE, TUNNEL // 2 + 3)
            )
            floors.append(Markup('<circle class="hub" cx="{:g}" cy="{:g}" r="{}"/>').format(*CENTRE, TUNNEL // 2))
        if segment.get("dead"):
            extras.append(_rock(edges[0]))
        if segment.get("door"):
            extras.append(_door(str(segment["door"]), edges))
        if segment.get("ladder"):
            extras.append(_ladder(*_midpoint(edges)))
    return walls + floors + extras


def _through(edges: str) -> str:
    points = [EDGE_POINT[edge] for edge in edges]
    cx, cy = CENTRE
    if len(edges) == 2 and OPPOSITE[edges[0]] == edges[1]:
        (x1, y1), (x2, y2) = points
        return f"M{x1:g} {y1:g} L{x2:g} {y2:g}"
    if len(edges) == 2:
        (x1, y1), (x2, y2) = points
        return f"M{x1:g} {y1:g} Q{cx:g} {cy:g} {x2:g} {y2:g}"
    # One edge (a tunnel ending in the card) or a junction of three or four.
    return " ".join(f"M{x:g} {y:g} L{cx:g} {cy:g}" for x, y in points)


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


def _door(colour: str, edges: str) -> Markup:
    x, y = _midpoint(edges)
    fill = DOOR_COLOURS.get(colour, "#777")
    return Markup(
        '<g class="door door-{}"><rect x="{:g}" y="{:g}" width="14" height="18" rx="3" fill="{}"/>'
        '<circle cx="{:g}" cy="{:g}" r="1.5" fill="#fff"/></g>'
    ).format(escape(colour), x - 7, y - 9, fill, x + 3, y)


def _ladder(x: float, y: float) -> Markup:
    rungs = "".join(f"M{x - 6:g} {y + dy:g} L{x + 6:g} {y + dy:g} " for dy in (-8, -3, 2, 7))
    return Markup('<path class="ladder" d="M{:g} {:g} L{:g} {:g} M{:g} {:g} L{:g} {:g} {}"/>').format(
        x - 6, y - 12, x - 6, y + 12, x + 6, y - 12, x + 6, y + 12, rungs
    )


def _crystals(count: int) -> list[Markup]:
    return [
        Markup('<path class="crystal" d="M{0:g} 8 l4 5 l-4 5 l-4 -5 z"/>').format(10 + 9 * index)
        for index in range(count)
    ]


def _nugget() -> Markup:
    return Markup(
        '<path class="nugget" d="M22 50 q4 -12 14 -8 q10 2 6 12 q-4 8 -12 6 q-10 0 -8 -10 z"/>'
        '<text class="goal-word" x="30" y="78">GOLD</text>'
    )


# -- action cards -------------------------------------------------------------------------------------


def _action(info: Mapping[str, Any]) -> Markup:
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
    return Markup('<g class="art">{}</g>').format(Markup("").join(parts))


def _tool_row(tools: list[str]) -> Markup:
    if len(tools) == 1:
        return _tool(tools[0])
    return Markup("").join(
        Markup('<g transform="translate({:g} {:g}) scale(0.62)">{}</g>').format(offset, 18, _tool(tool))
        for offset, tool in zip((-2, 24), tools)
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
