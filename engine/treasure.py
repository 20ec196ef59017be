"""Saboteur 2's end of a round: which team may claim the gold, who wins, the gold pieces, the thefts.

A team may claim the gold when it is joined to the start without passing a door of the other
colour. Who wins then depends on who connected (see `winning_teams`). Winners share gold pieces
by their number; the Boss gets one less and the Profiteer two less; Geologists are paid the
crystals on the board (and, with option `geologists_share_gold`, a winner's share too when the Boss,
the Profiteer or a Geologist connected); trapped players get nothing and are not counted. Then every
holder of a Theft who is not trapped may take one gold piece from another player, each steal a
decision of its own (phase `steal`). Gold pieces are numbers: the bank always makes change.
"""
from __future__ import annotations

from typing import Any

from .board import gold_reachable
from .errors import IllegalMove
from .events import public
from .piles import card_in_front, discard_from_front, is_trapped
from .rounds import final_table, next_round
from .setup import option
from .shapes import Event, Payout
from .state import PLAY, STEAL, Game
from .variants import BLUE, BOSS, GEOLOGIST, GREEN, PROFITEER, SABOTEUR, TEAM_OF_ROLE, Variant, variant_of

TEAMS = ("blue", "green")
OTHER_TEAM = {"blue": "green", "green": "blue"}
SHARE_BY_WINNERS = {1: 5, 2: 4, 3: 3, 4: 2}
SHARE_FOR_MANY = 1  # each, for more winners than the table lists
LESS_FOR_ROLE = {BOSS: 1, PROFITEER: 2}
# Why a seat is paid, as payout lines name it: the team, the crystals, or the role itself.
REASON_FOR_ROLE = {BLUE: "blue", GREEN: "green"}
CRYSTALS = "crystals"

Events = list[Event]


def team_claims(v: Variant, board: Any) -> dict[str, bool]:
    """For each team: may it carry the gold out past the doors on the board?"""
    return {team: gold_reachable(v, board, exclude_door=OTHER_TEAM[team]) for team in TEAMS}


def winning_teams(connector_role: str, claims: dict[str, bool]) -> list[str]:
    """The teams that win when a dwarf of `connector_role` reached the gold.

    A gold-digger's own team wins if it can claim the gold; if a door of the wrong colour blocks
    it, the other team wins when that team can claim. Anyone else (Boss, Profiteer, Geologist, or
    a Saboteur) who connects lets every team that can claim win. No team that can claim: none.
    """
    team = TEAM_OF_ROLE.get(connector_role)
    if team is None:
        return [t for t in TEAMS if claims[t]]
    if claims[team]:
        return [team]
    other = OTHER_TEAM[team]
    return [other] if claims[other] else []


def share_for(winners: int) -> int:
    return SHARE_BY_WINNERS.get(winners, SHARE_FOR_MANY) if winners else 0


def visible_crystals(v: Variant, board: Any) -> int:
    """Every crystal on a card lying face up on the table counts, joined to the start or not."""
    return sum(v.cards[card_id].crystals for card_id, _ in board.values())


def end_round_with_teams(g: Game, events: Events, gold_reached_by: int | None, reason: str) -> None:
    """Reveal the dwarf cards, pay the winners and the Geologists, then let the thieves steal.

    The dwarf cards given up to Swap Your Hats stay face down: neither the event nor the result names them
    (nor the leftovers, which would give them away), only how many hats were swapped."""
    v = variant_of(g)
    n = g.seats
    roles = g.roles
    trapped = [s for s in range(n) if is_trapped(g, s)]
    claims = team_claims(v, g.board) if gold_reached_by is not None else {t: False for t in TEAMS}
    connector = roles[gold_reached_by] if gold_reached_by is not None else None
    teams = winning_teams(connector, claims) if connector is not None else []
    winners = seats_winning(roles, teams, connector, g.options)
    winner = "diggers" if teams else "saboteurs" if winners else "nobody"
    share = share_for(sum(1 for s in winners if s not in trapped))
    payouts = [_payout(s, roles[s], share - LESS_FOR_ROLE.get(roles[s], 0), share, s in trapped) for s in winners]

    crystals = visible_crystals(v, g.board)
    geologists = [s for s in range(n) if roles[s] == GEOLOGIST]
    paid_geologists = [s for s in geologists if s not in trapped]
    each = crystals // len(paid_geologists) if paid_geologists else 0
    payouts += [_payout(s, GEOLOGIST, each, crystals, s in trapped, CRYSTALS) for s in geologists]

    for payout in payouts:
        g.gold_pieces[payout["seat"]] += payout["amount"]
    g.results.append({
        "round": g.round,
        "winner": winner,
        "reached_by": gold_reached_by,
        "teams": teams,
        "claims": dict(claims),
        "reason": reason,
        "roles": list(roles),
        "spare_roles": told_leftovers(g),
        "hats_swapped": len(g.discarded_roles),
        "trapped": trapped,
        "crystals": crystals,
        "payouts": payouts,
        "thefts": [],
        **final_table(g),
    })
    events.append(public("round_ended", round=g.round, winner=winner, reached_by=gold_reached_by, reason=reason,
                         teams=teams, claims=dict(claims), roles=list(roles), spare_roles=told_leftovers(g),
                         hats_swapped=len(g.discarded_roles), trapped=trapped, crystals=crystals))
    for payout in payouts:
        events.append(public("gold_paid", **payout))
    g.turn = None
    g.stealers = stealing_order(g)
    next_stealer(g, events)


def told_leftovers(g: Game) -> list[str]:
    """The leftover dwarf cards told at the end of a round: none once a hat was swapped, since with the roles
    held at the end they would tell by elimination which card went face down."""
    return [] if g.discarded_roles else list(g.spare_roles)


def _payout(
    seat: int, role: str, amount: int, base: int, trapped: bool, reason: str | None = None
) -> Payout:
    """One line of the payout: `base` is the share (or the crystals) before the role's discount."""
    if trapped:
        return {"seat": seat, "amount": 0, "base": base, "reason": "trapped"}
    return {"seat": seat, "amount": max(amount, 0), "base": base, "reason": reason or REASON_FOR_ROLE.get(role, role)}


def seats_winning(roles: list[str], teams: list[str], connector: str | None, options: dict[str, Any]) -> list[int]:
    """The seats that win a round: when teams won, their members with the Boss and the Profiteer (and the
    Geologists, see `geologists_win`); when none did, the Saboteurs and the Profiteer. A trapped winner still
    wins, though paid nothing."""
    if teams:
        sharing = (BOSS, PROFITEER, GEOLOGIST) if geologists_win(options, connector) else (BOSS, PROFITEER)
        return [s for s, role in enumerate(roles) if TEAM_OF_ROLE.get(role) in teams or role in sharing]
    return [s for s, role in enumerate(roles) if role in (SABOTEUR, PROFITEER)]


def geologists_win(options: dict[str, Any], connector: str | None) -> bool:
    """Whether the Geologists count among the winners when `connector` reached the gold.

    The rulebook lets both teams win "along with all other non-Saboteurs" when the Boss, the Profiteer or a
    Geologist connects. Read strictly, a Geologist is paid in crystals only (the default); with option
    `geologists_share_gold` the Geologists are such non-Saboteurs and take a share as well."""
    return bool(option(options, "geologists_share_gold")) and connector in (BOSS, PROFITEER, GEOLOGIST)


def stealing_order(g: Game) -> list[int]:
    """Holders of a Theft: the one who played the latest still lying first, then clockwise."""
    holders = {s for s in range(g.seats) if card_in_front(g, s, "theft") is not None}
    if not holders:
        return []
    first = next(s for s in reversed(g.theft_order) if s in holders)
    return [(first + k) % g.seats for k in range(g.seats) if (first + k) % g.seats in holders]


def steal_targets(g: Game, seat: int) -> list[int]:
    return [t for t in range(g.seats) if steal_refusal(g, seat, t) is None]


def steal_refusal(g: Game, seat: int, target: int) -> IllegalMove | None:
    if target == seat:
        return IllegalMove("steal_from_yourself")
    if g.gold_pieces[target] < 1:
        return IllegalMove("no_gold_to_steal", seat=target, player=g.players[target])
    return None


def next_stealer(g: Game, events: Events) -> None:
    """Ask the next thief who can steal; a trapped thief or one with nobody to rob loses the card."""
    while g.stealers:
        seat = g.stealers[0]
        if is_trapped(g, seat):
            _theft_done(g, events, seat, None, "trapped")
        elif not steal_targets(g, seat):
            _theft_done(g, events, seat, None, "no_gold_to_steal")
        else:
            g.phase = STEAL
            g.turn = seat
            return
    g.phase = PLAY
    g.turn = None
    next_round(g, events)


def steal(g: Game, events: Events, seat: int, target: int | None) -> None:
    """The thief to act takes one gold piece from `target`, or lets the chance go (`None`)."""
    if target is not None:
        problem = steal_refusal(g, seat, target)
        if problem:
            raise problem
        g.gold_pieces[target] -= 1
        g.gold_pieces[seat] += 1
    _theft_done(g, events, seat, target, "stole" if target is not None else "declined")
    next_stealer(g, events)


def _theft_done(g: Game, events: Events, seat: int, target: int | None, outcome: str) -> None:
    card = card_in_front(g, seat, "theft")
    assert card is not None
    discard_from_front(g, seat, card)
    g.stealers.pop(0)
    result = dict(g.results[-1])
    result["thefts"] = result["thefts"] + [{"seat": seat, "target": target, "outcome": outcome}]
    g.results[-1] = result
    if outcome == "stole":
        events.append(public("gold_stolen", seat=seat, target=target))
    else:
        events.append(public("theft_unused", seat=seat, reason=outcome))
