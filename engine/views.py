"""What one seat may know, as JSON: the only way pages, emails and bots see a game.

Hidden from a seat: other seats' hands and roles (until the round ends), goals it has not seen,
the order of the draw pile, discarded cards, other seats' gold values (until the game ends)
and the generator state. In Saboteur 2 also: the cards set aside, the leftover and discarded
dwarf cards, what other seats saw with an Inspection, and other seats' gold totals (only whether
a seat has any gold is public). A view is built only from what that seat may know, so changing
anything hidden from it never changes its view.
"""
from __future__ import annotations

from typing import Any, cast

from .cards import CardType
from .geometry import letters, turned
from .piles import card_in_front
from .rounds import gold_totals
from .rules import broken_tools, to_act
from .shapes import CardInfo, FinalBoard, Goal, RoundResult, SeatRow, View
from .state import GOLD_PICK, OVER, STEAL, Game
from .treasure import steal_targets, stealing_order
from .variants import Variant, variant_of

# For each card id of a variant: the card as `card_info` gives it, upright and turned. Only ever copied.
PrintedCards = tuple[tuple[CardInfo, CardInfo], ...]


def card_info(v: Variant, card_id: int, rotated: bool = False) -> CardInfo:
    """A card as a page draws it: name, label, and its segments as they lie; the dict and its lists are the caller's."""
    return _fresh(_printed_cards(v)[card_id][rotated])


def _fresh(printed: CardInfo) -> CardInfo:
    """A copy of a printed card that shares no dict or list with it."""
    info = printed.copy()
    segments = printed.get("segments")
    if segments is not None:
        info["segments"] = [segment.copy() for segment in segments]
    tools = printed.get("tools")
    if tools is not None:
        info["tools"] = list(tools)
    return info


# The printed cards by variant object (a host's deck makes its own variant). An entry keeps its variant alive, so
# no other object can take its id while cached; past _PRINTED_VARIANTS variants the cache starts afresh.
_PRINTED_VARIANTS = 32
_printed: dict[int, tuple[Variant, PrintedCards]] = {}


def _printed_cards(v: Variant) -> PrintedCards:
    """Every card of `v` as `card_info` gives it, upright and turned, computed once per variant."""
    entry = _printed.get(id(v))
    if entry is not None and entry[0] is v:
        return entry[1]
    cards = tuple((_printed_card(v, card_id, False), _printed_card(v, card_id, True))
                  for card_id in range(len(v.cards)))
    if len(_printed) >= _PRINTED_VARIANTS:
        _printed.clear()
    _printed[id(v)] = (v, cards)
    return cards


def _printed_card(v: Variant, card_id: int, rotated: bool) -> CardInfo:
    """A card as a page draws it, from the variant's card table."""
    card: CardType = v.cards[card_id]
    info: CardInfo = {"id": card_id, "name": card.name, "label": card.label, "kind": card.kind}
    if card.segments:
        segments = []
        for seg in card.segments:
            d = seg.to_dict()
            if rotated:
                d["edges"] = letters(turned(seg.edges))
            segments.append(d)
        info["segments"] = segments
        info["openings"] = letters(v.openings[card_id][rotated])
        info["symmetric"] = card.symmetric
        if card.crystals:
            info["crystals"] = card.crystals
        if card.kind == "goal":
            info["gold"] = card.gold
    if card.effect:
        info["effect"] = card.effect
    if card.tools:
        info["tools"] = list(card.tools)
    return info


def view(g: Game, seat: int | None) -> View:
    if seat is not None and (type(seat) is not int or not 0 <= seat < g.seats):
        raise ValueError(f"no seat {seat!r} in this game")
    v = variant_of(g)
    over = g.phase == OVER
    acting = to_act(g)

    printed = _printed_cards(v)
    board = []
    for (x, y), (card_id, rotated) in sorted(g.board.items()):
        cell = _fresh(printed[card_id][rotated])
        cell["x"], cell["y"], cell["rotated"] = x, y, rotated
        board.append(cell)

    goals: list[Goal] = []
    for x, y in v.goal_cells:
        if (x, y) in g.board:
            card_id, _ = g.board[(x, y)]
            goals.append({"x": x, "y": y, "revealed": True, "gold": v.cards[card_id].gold})
        else:
            seen = seat is not None and (x, y) in g.peeks[seat]
            gold = v.cards[g.hidden_goals[(x, y)]].gold if seen or over else None
            goals.append({"x": x, "y": y, "revealed": False, "gold": gold, "seen": seen})

    seats: list[SeatRow] = []
    for s, name in enumerate(g.players):
        seats.append({
            "seat": s,
            "name": name,
            "hand_count": len(g.hands[s]),
            "front": [_fresh(printed[c][False]) for c in g.front[s]],
            "broken": broken_tools(g, s),
            "gold_cards": len(g.gold[s]),
            "to_act": acting == s,
        })

    out: View = {
        "variant": g.variant,
        "seat": seat,
        "players": list(g.players),
        "options": _options(g.options),
        "round": g.round,
        "rounds": v.rounds,
        "phase": g.phase,
        "to_act": acting,
        "board": board,
        "goals": goals,
        "last_placed": list(g.last_placed) if g.last_placed else None,
        "draw_pile": len(g.draw_pile),
        "discard_pile": len(g.discard),
        "seats": seats,
        "results": [_public_result(v, r) for r in g.results],
        "gold_offer": len(g.offer) if g.phase == GOLD_PICK else 0,
    }
    if seat is not None:
        out["you"] = {
            "seat": seat,
            "name": g.players[seat],
            "role": g.roles[seat],
            "hand": [_fresh(printed[c][False]) for c in g.hands[seat]],
            "peeks": [{"x": x, "y": y, "gold": v.cards[g.hidden_goals[(x, y)]].gold if (x, y) in g.hidden_goals
                       else v.cards[g.board[(x, y)][0]].gold} for x, y in g.peeks[seat]],
            "gold": sorted(g.gold[seat], reverse=True),
            "gold_total": gold_totals(g)[seat],
            "offer": sorted(g.offer, reverse=True) if g.phase == GOLD_PICK and acting == seat else None,
        }
    if v.pays_gold_pieces:
        _add_saboteur2(g, seat, out)
    if over:
        totals = gold_totals(g)
        best = max(totals) if totals else 0
        out["final"] = {
            "scores": totals,
            "gold": [sorted(values, reverse=True) for values in g.gold],
            "winners": [s for s, t in enumerate(totals) if t == best],
        }
    return out


def final_board(v: Variant, cells: list[list[int]], last_placed: list[int] | None) -> FinalBoard:
    """A round's table as it ended, drawn like a view's board: the cards face up (the goals turned over among
    them) and the goals left face down, whatever they hid. A round recorded before results kept their table
    has none."""
    printed = _printed_cards(v)
    board = []
    for x, y, card_id, stored_rotated in cells:
        rotated = bool(stored_rotated)
        cell = _fresh(printed[card_id][rotated])
        cell["x"], cell["y"], cell["rotated"] = x, y, rotated
        board.append(cell)
    laid = {(cell["x"], cell["y"]): cell for cell in board}
    goals: list[Goal] = [{"x": x, "y": y, "revealed": True, "gold": laid[(x, y)].get("gold", False)} if (x, y) in laid
             else {"x": x, "y": y, "revealed": False, "gold": None, "seen": False} for x, y in v.goal_cells]
    return {"board": board, "goals": goals, "last_placed": last_placed}


def _options(options: dict[str, Any]) -> dict[str, Any]:
    """The game's options; a host's own deck shows as "custom" (its cards reach views one by one, in full)."""
    return {name: ("custom" if name == "deck" else value) for name, value in options.items()}


def _add_saboteur2(g: Game, seat: int | None, out: View) -> None:
    """Doors, ladders and crystals travel with the board's cards; this adds the expansion's table facts."""
    stealing = g.phase == STEAL
    for entry in out["seats"]:
        s = entry["seat"]
        entry["trapped"] = card_in_front(g, s, "trapped") is not None
        entry["theft"] = card_in_front(g, s, "theft") is not None
        entry["has_gold"] = g.gold_pieces[s] > 0
    out["set_aside"] = len(g.removed)
    out["leftover_roles"] = len(g.spare_roles)
    out["theft_order"] = stealing_order(g) if not stealing else list(g.stealers)
    thief = g.turn if stealing else None
    out["steal"] = {"seat": thief, "targets": steal_targets(g, thief)} if thief is not None else None
    if seat is not None:
        out["you"]["gold_pieces"] = g.gold_pieces[seat]
        out["you"]["inspections"] = [{"seat": seen, "role": role} for seen, role in g.inspections[seat]]


def _public_result(v: Variant, result: dict[str, Any]) -> RoundResult:
    """A finished round, as recorded: it holds only what is public once the round has ended
    (roles, who won, payouts and thefts in Saboteur 2, gold card counts but not values in the base game),
    and the table as the round ended under `final_board` (see `final_board`).
    The dwarf cards given up to Swap Your Hats stay face down for good: a round recorded before they were
    left out of results shows only how many there were."""
    public = {key: _json_copy(value) for key, value in result.items() if key != "board"}
    if "board" in result:
        public["final_board"] = final_board(v, result["board"], public.pop("last_placed", None))
    if "discarded_roles" in public:
        public["hats_swapped"] = len(public.pop("discarded_roles"))
        if public["hats_swapped"] and "spare_roles" in public:
            public["spare_roles"] = []
    return cast(RoundResult, public)


def _json_copy(value: Any) -> Any:
    """A copy of a JSON value (dicts, lists, tuples, strings, numbers, booleans, None) sharing no container with it."""
    if isinstance(value, dict):
        return {key: _json_copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_json_copy(item) for item in value]
    if isinstance(value, tuple):
        return tuple(_json_copy(item) for item in value)
    return value
