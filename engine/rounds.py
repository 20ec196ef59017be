"""Dealing a round, ending it, and sharing out the gold.

Each function changes the game passed in (a fresh clone made by `apply_move` or `new_game`)
and appends the events it causes.
"""
from __future__ import annotations

from collections import Counter

from .board import reach_from_start
from .events import private, public
from .rng import Rng
from .shapes import Event
from .state import GOLD_PICK, OVER, PLAY, Game
from .variants import Variant, variant_of

SABOTEUR_SHARE = {1: 4, 2: 3, 3: 3, 4: 2}
# Whose left neighbour starts the next round (`because` of `round_started`).
LAST_PATH, LAST_CARD = "last_path", "last_card"
# Why a round ended (`reason` of `round_ended` and of the round's result).
GOLD_REACHED, HANDS_EMPTY, NO_PLAYABLE_CARDS = "gold_reached", "hands_empty", "no_playable_cards"

Events = list[Event]


def deal_round(
    g: Game, starter: int, events: Events, *, after: int | None = None, because: str | None = None
) -> None:
    """Set out start and goals, set cards aside unseen, deal roles and hands; the starter acts first.

    `after` and `because` say why the starter starts (see `next_starter`); the first round has neither."""
    v = variant_of(g)
    n = g.seats
    rng = Rng(g.rng)

    roles = v.role_deck(n)
    rng.shuffle(roles)
    g.roles, g.spare_roles = roles[:n], roles[n:]

    goals = list(v.goal_ids)
    rng.shuffle(goals)
    g.hidden_goals = dict(zip(v.goal_cells, goals, strict=False))
    g.board = {v.start_cell: (v.start_id, False)}

    deck = list(v.playable_ids)
    rng.shuffle(deck)
    g.removed = [deck.pop() for _ in range(v.removed_per_round)]
    size = v.hand_size(n)
    g.hands = [[] for _ in range(n)]
    for k in range(n):
        seat = (starter + k) % n
        g.hands[seat] = [deck.pop() for _ in range(size)]
    g.draw_pile = deck

    held = Counter(value for values in g.gold for value in values)
    pile = list((Counter(v.gold_cards) - held).elements())
    rng.shuffle(pile)
    g.gold_pile = pile

    g.rng = rng.state
    g.round += 1
    g.phase = PLAY
    g.turn = starter
    g.discard = []
    g.front = [[] for _ in range(n)]
    g.peeks = [[] for _ in range(n)]
    g.offer = []
    g.last_actor = None
    g.last_placed = None
    g.last_builder = None
    g.discarded_roles = []
    g.inspections = [[] for _ in range(n)]
    g.theft_order = []
    g.stealers = []
    g.reach = reach_from_start(v, g.board)

    if after is None:
        events.append(public("round_started", round=g.round, first=starter))
    else:
        events.append(public("round_started", round=g.round, first=starter, after=after, because=because))
    if g.removed:
        events.append(public("cards_set_aside", count=len(g.removed)))
    for seat in range(n):
        events.append(private(seat, "role_dealt", seat=seat, role=g.roles[seat]))
        events.append(private(seat, "hand_dealt", seat=seat, cards=list(g.hands[seat]),
                              names=[v.cards[c].name for c in g.hands[seat]]))


def next_seat_with_cards(g: Game, seat: int) -> int | None:
    """The next seat clockwise that still has something to play (possibly `seat` itself)."""
    n = g.seats
    for k in range(1, n + 1):
        candidate = (seat + k) % n
        if g.hands[candidate]:
            return candidate
    return None


def next_digger_counter_clockwise(g: Game, seat: int) -> int | None:
    n = g.seats
    for k in range(1, n + 1):
        candidate = (seat - k) % n
        if g.roles[candidate] == "digger":
            return candidate
    return None


def final_table(g: Game) -> dict[str, object]:
    """The table as a round ends, kept in its result (the next deal clears it): every card lying face up
    (start, paths, the goals turned over) as the state's `board` holds them, and the last cell built."""
    return {
        "board": [[x, y, card, int(rotated)] for (x, y), (card, rotated) in sorted(g.board.items())],
        "last_placed": list(g.last_placed) if g.last_placed else None,
    }


# The role whose holders won a base-game round, by the winning side its result names ("nobody": none).
SIDE_ROLE = {"diggers": "digger", "saboteurs": "saboteur"}


def end_round(g: Game, events: Events, gold_reached_by: int | None, reason: str) -> None:
    """Reveal the roles and pay the winners; deal on or finish when nothing is left to decide."""
    n = g.seats
    saboteurs = [s for s in range(n) if g.roles[s] == SIDE_ROLE["saboteurs"]]
    if gold_reached_by is not None:
        winner = "diggers"
    elif saboteurs:
        winner = "saboteurs"
    else:
        winner = "nobody"
    g.results.append({
        "round": g.round,
        "winner": winner,
        "reached_by": gold_reached_by,
        "reason": reason,
        "roles": list(g.roles),
        "spare_roles": list(g.spare_roles),
        "gold_cards": [0] * n,
        "saboteur_pay": [],
        **final_table(g),
    })
    events.append(public("round_ended", round=g.round, winner=winner, reached_by=gold_reached_by, reason=reason,
                         roles=list(g.roles), spare_roles=list(g.spare_roles)))
    g.turn = None
    if winner == "diggers":
        assert gold_reached_by is not None
        if _offer_gold_to_diggers(g, events, gold_reached_by):
            return
    elif winner == "saboteurs":
        _pay_saboteurs(g, events, saboteurs)
    next_round(g, events)


def _offer_gold_to_diggers(g: Game, events: Events, reached_by: int) -> bool:
    """Start the picks; False when there is nothing to share (no digger or no gold left)."""
    n = g.seats
    diggers = [s for s in range(n) if g.roles[s] == "digger"]
    if g.options.get("digger_gold_cards", "players") == "diggers":
        count = len(diggers)
    else:
        count = 9 if n == 10 else n
    count = min(count, len(g.gold_pile))
    if not diggers or not count:
        return False
    g.offer = [g.gold_pile.pop() for _ in range(count)]
    first = reached_by if g.roles[reached_by] == "digger" else next_digger_counter_clockwise(g, reached_by)
    assert first is not None
    events.append(public("gold_drawn", count=count, first=first))
    g.phase = GOLD_PICK
    g.turn = first
    if g.options.get("auto_pick_gold", False):
        while g.phase == GOLD_PICK:
            pick_gold(g, events, g.turn, max(g.offer))
    else:
        events.append(private(first, "gold_offered", seat=first, values=sorted(g.offer, reverse=True)))
    return True


def pick_gold(g: Game, events: Events, seat: int, value: int) -> None:
    """One digger keeps one card of the offer and passes the rest counter-clockwise."""
    g.offer.remove(value)
    g.gold[seat].append(value)
    result = dict(g.results[-1])
    result["gold_cards"] = list(result["gold_cards"])
    result["gold_cards"][seat] += 1
    g.results[-1] = result
    events.append(public("gold_picked", seat=seat, left=len(g.offer)))
    events.append(private(seat, "gold_kept", seat=seat, values=[value]))
    if g.offer:
        following = next_digger_counter_clockwise(g, seat)
        assert following is not None
        g.turn = following
        if not g.options.get("auto_pick_gold", False):
            events.append(private(following, "gold_offered", seat=following, values=sorted(g.offer, reverse=True)))
        return
    g.phase = PLAY
    g.turn = None
    next_round(g, events)


def _pay_saboteurs(g: Game, events: Events, saboteurs: list[int]) -> None:
    n = g.seats
    share = SABOTEUR_SHARE.get(len(saboteurs), 2)
    after = g.last_actor if g.last_actor is not None else 0
    order = [(after + k) % n for k in range(1, n + 1)]
    result = dict(g.results[-1])
    result["gold_cards"] = list(result["gold_cards"])
    result["saboteur_pay"] = []
    for seat in order:
        if seat not in saboteurs:
            continue
        cards = take_nuggets(g.gold_pile, share)
        g.gold[seat].extend(cards)
        result["gold_cards"][seat] += len(cards)
        result["saboteur_pay"].append({"seat": seat, "due": share, "nuggets": sum(cards), "card_count": len(cards)})
        events.append(public("saboteur_paid", seat=seat, due=share, nuggets=sum(cards), card_count=len(cards)))
        events.append(private(seat, "gold_kept", seat=seat, values=list(cards)))
    g.results[-1] = result


def take_nuggets(pile: list[int], due: int) -> list[int]:
    """Draw from the top until exactly `due` nuggets; a card that overshoots goes to the bottom.

    When no combination of the cards left makes `due`, the saboteur gets the largest total
    below it that they can make.
    """
    taken: list[int] = []
    total = 0
    misses = 0
    while total < due and pile and misses < len(pile):
        value = pile.pop()
        if total + value <= due:
            taken.append(value)
            total += value
            misses = 0
        else:
            pile.insert(0, value)
            misses += 1
    if total < due:
        best = _best_subset(taken + pile, due)
        if sum(best) > total:
            pile.extend(taken)
            taken = []
            for value in best:
                pile.remove(value)
                taken.append(value)
    return taken


def _best_subset(values: list[int], limit: int) -> list[int]:
    """The values of a largest-sum sub-multiset not over `limit` (small numbers, so a DP)."""
    reachable: dict[int, list[int]] = {0: []}
    for value in values:
        for total, chosen in list(reachable.items()):
            new = total + value
            if new <= limit and new not in reachable:
                reachable[new] = chosen + [value]
    return reachable[max(reachable)]


def gold_totals(g: Game) -> list[int]:
    """Each seat's gold: nugget cards (base game) plus gold pieces (Saboteur 2)."""
    return [sum(values) + pieces for values, pieces in zip(g.gold, g.gold_pieces, strict=False)]


def next_round(g: Game, events: Events) -> None:
    """Deal the next round, started by the seat `next_starter` names; after the last round the game ends."""
    v: Variant = variant_of(g)
    if g.round >= v.rounds:
        g.phase = OVER
        g.turn = None
        totals = gold_totals(g)
        best = max(totals)
        events.append(public("game_over", scores=totals, winners=[s for s, t in enumerate(totals) if t == best],
                             gold=[sorted(values, reverse=True) for values in g.gold]))
        return
    after, because = next_starter(g)
    deal_round(g, (after + 1) % g.seats, events, after=after, because=because)


def next_starter(g: Game) -> tuple[int, str]:
    """Whose left neighbour starts the next round, and why: `last_path`, `last_card` or `first_round`.

    The base game's rulebook names the player who played the last path card of the round; when nobody
    built a path, and in Saboteur 2 (whose rulebook names the last card played), the player of the last card.
    """
    if not variant_of(g).pays_gold_pieces and g.last_builder is not None:
        return g.last_builder, LAST_PATH
    if g.last_actor is not None:
        return g.last_actor, LAST_CARD
    return 0, LAST_CARD
