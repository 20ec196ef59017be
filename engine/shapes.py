"""The JSON shapes the engine hands out and takes in: moves, events, cards and a seat's view.

They are plain dicts at run time (a `TypedDict` only names the keys for the type checker), so they travel as JSON
to pages, emails, snapshots and bots unchanged. A key not marked Required is there only for some kinds (a move's
`x` for a path card, a view's `you` for a seat); docs/engine.md lists which.
"""
from __future__ import annotations

from typing import Any, Literal, Required, TypedDict

# Who may be told an event: everyone, or the listed seats.
Audience = Literal["public"] | list[int]


class Move(TypedDict, total=False):
    """A move, as `legal_moves` lists it and `apply_move` takes it. `type` is one of "play" (a path card at x, y,
    rotated or not; an action card on a target, a tool, a cell or nobody), "pass" (cards face down), "clear"
    (Saboteur 2: cards given to remove one in front of you), "pick_gold" (a value) and "steal" (a target, or None)."""

    type: Required[str]
    card: int
    x: int
    y: int
    rotated: bool
    target: int | None  # None only for "steal": the thief takes nothing
    tool: str
    cards: list[int]
    remove: int
    value: int


class Payout(TypedDict):
    """One seat's pay at the end of a Saboteur 2 round: `base` is the share (or the crystals) before its role's
    discount."""

    seat: int
    amount: int
    base: int
    reason: str


class Theft(TypedDict):
    """Saboteur 2: what one thief did after a round: "stole" from `target`, or "declined" (target None)."""

    seat: int
    target: int | None
    outcome: str


class SaboteurPay(TypedDict):
    """The base game: one saboteur's gold cards after a round the saboteurs won."""

    seat: int
    due: int
    nuggets: int
    card_count: int


class Event(TypedDict, total=False):
    """Something that happened, and who may be told it. Each `type` has its own keys (docs/engine.md, "Events");
    the service adds its own kinds (a timed-out turn, a rollback) with keys of theirs."""

    type: Required[str]
    audience: Required[Audience]
    seat: int
    target: int | None
    card: int
    name: str
    names: list[str]
    cards: list[int]
    count: int
    left: int
    x: int
    y: int
    rotated: bool
    gold: Any  # a goal's gold (True or False); the gold cards of each seat in "game_over"
    tool: str
    removed: int
    role: str  # None only in the archive, for a dwarf card that stays unsaid (reveal.open_event)
    round: int
    first: int
    after: int
    because: str
    values: list[int]
    due: int
    nuggets: int
    card_count: int
    winner: str | None
    reached_by: int | None
    reason: str | None
    roles: list[str]
    spare_roles: list[str]
    teams: list[str]
    claims: dict[str, bool]
    hats_swapped: int
    trapped: list[int]
    crystals: int
    amount: int
    base: int
    scores: list[int]
    winners: list[int]
    how: str  # the service's "timed_out": what was played for the seat
    to_seq: int  # the service's "rolled_back": the snapshot the game went back to


class SegmentInfo(TypedDict, total=False):
    """One tunnel of a card: the edges it joins ("NS"), and whether it is a dead end, a door of a colour or a
    ladder."""

    edges: Required[str]
    dead: bool
    door: str
    ladder: bool


class CardInfo(TypedDict, total=False):
    """A card as a page draws it (`card_info`): a path card has segments, openings and symmetric, a goal its gold,
    an action its effect and tools. A card on the board also says where it lies (x, y, rotated)."""

    id: Required[int]
    name: Required[str]
    label: Required[str]
    kind: Required[str]
    segments: list[SegmentInfo]
    openings: str
    symmetric: bool
    crystals: int
    gold: bool
    effect: str
    tools: list[str]
    x: int
    y: int
    rotated: bool


class Goal(TypedDict, total=False):
    """A goal's place: turned over (its gold known to all), or face down (its gold known once seen or at the end)."""

    x: Required[int]
    y: Required[int]
    revealed: Required[bool]
    gold: Required[bool | None]
    seen: bool


class SeatRow(TypedDict, total=False):
    """What everyone sees of one seat; trapped, theft and has_gold only in Saboteur 2. An open view (the recap of
    a finished game, reveal.open_view) adds what the seat held: role, hand (None when private moves stay hidden) and
    gold."""

    seat: Required[int]
    name: Required[str]
    hand_count: Required[int]
    front: Required[list[CardInfo]]
    broken: Required[list[str]]
    gold_cards: Required[int]
    to_act: Required[bool]
    trapped: bool
    theft: bool
    has_gold: bool
    role: str | None
    hand: list[CardInfo] | None
    gold: list[int]
    gold_total: int


class Peek(TypedDict):
    """A goal the seat has looked at with a Map, and whether it hides the gold."""

    x: int
    y: int
    gold: bool


class Inspection(TypedDict):
    """Saboteur 2: a seat whose dwarf card this seat looked at, and what it was."""

    seat: int
    role: str | None  # None in the archive for a dwarf card that stays unsaid (reveal.open_event)


class You(TypedDict, total=False):
    """What only the viewing seat knows; gold_pieces and inspections only in Saboteur 2."""

    seat: Required[int]
    name: Required[str]
    role: Required[str]
    hand: Required[list[CardInfo]]
    peeks: Required[list[Peek]]
    gold: Required[list[int]]
    gold_total: Required[int]
    offer: Required[list[int] | None]
    gold_pieces: int
    inspections: list[Inspection]


class Final(TypedDict):
    """The scores once the game is over, each seat's gold cards and who won."""

    scores: list[int]
    gold: list[list[int]]
    winners: list[int]


class Steal(TypedDict):
    """Saboteur 2: whose turn it is to steal, and from whom it may."""

    seat: int
    targets: list[int]


class FinalBoard(TypedDict):
    """A round's table as it ended (`final_board`)."""

    board: list[CardInfo]
    goals: list[Goal]
    last_placed: list[int] | None


class RoundResult(TypedDict, total=False):
    """A finished round as a view tells it (`results`): who won and why, the roles (public once a round ends) and
    its table as it ended (`final_board`; none for a round recorded before results kept their table). The base game
    adds gold_cards and saboteur_pay, Saboteur 2 teams to thefts. A round recorded before a key existed lacks it."""

    round: Required[int]
    winner: Required[str]
    reached_by: Required[int | None]
    reason: Required[str]
    roles: Required[list[str]]
    spare_roles: list[str]
    gold_cards: list[int]
    saboteur_pay: list[SaboteurPay]
    teams: list[str]
    claims: dict[str, bool]
    hats_swapped: int
    trapped: list[int]
    crystals: int
    payouts: list[Payout]
    thefts: list[Theft]
    final_board: FinalBoard


class View(TypedDict, total=False):
    """What one seat may know (`view(state, seat)`), or anyone (seat None). `you` only for a seat, `final` once
    the game is over, set_aside to steal only in Saboteur 2, and open to hats_swapped only in an open view (the
    recap of a finished game, reveal.open_view). A result is a finished round as recorded (its keys differ by
    variant), with its table as `final_board`."""

    variant: Required[str]
    seat: Required[int | None]
    players: Required[list[str]]
    options: Required[dict[str, Any]]
    round: Required[int]
    rounds: Required[int]
    phase: Required[str]
    to_act: Required[int | None]
    board: Required[list[CardInfo]]
    goals: Required[list[Goal]]
    last_placed: Required[list[int] | None]
    draw_pile: Required[int]
    discard_pile: Required[int]
    seats: Required[list[SeatRow]]
    results: Required[list[RoundResult]]
    gold_offer: Required[int]
    you: You
    final: Final
    set_aside: int
    leftover_roles: int
    theft_order: list[int]
    steal: Steal | None
    open: bool  # an open view (reveal.open_view): every seat's role, hand and gold, with the leftover roles
    spare_roles: list[str]
    hats_swapped: int
