"""Finished rounds in words, for the turn page and the emails alike.

Every function reads a round's public record (`view["results"]`: roles, winner, Saboteur 2 payouts and
thefts, all public once a round has ended) and seat names; none sees anything hidden.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.text import THEFT_OUTCOMES, WINNING_SIDES, less_for_role, role_name, share_table

# Payout reasons whose `base` is the winners' share (a Geologist's `base` counts crystals instead).
SHARED_REASONS = ("blue", "green", "saboteur", "boss", "profiteer", "geologist")
# Why the gold was not reached (a round result's `reason`): the opening of its outcome sentence.
NOT_REACHED = {
    "no_playable_cards": "The draw pile ran out and nobody could play a card before anyone reached the gold",
    "hands_empty": "Every hand was played out before anyone reached the gold",
}
CARDS_RAN_OUT = "The cards ran out before anyone reached the gold"


def gold_unit(view: dict[str, Any]) -> tuple[str, str]:
    """What a variant pays in, singular and plural: nugget cards (base) or gold pieces (Saboteur 2)."""
    return ("gold piece", "gold pieces") if view.get("variant") == "saboteur2" else ("nugget", "nuggets")


def pieces(amount: int) -> str:
    return f"{amount} gold piece{'s' if amount != 1 else ''}"


def outcome(result: dict[str, Any], names: Sequence[str]) -> str:
    """How a finished round was decided, in one sentence."""
    winner = result["winner"]
    if winner == "diggers":
        reached_by = result["reached_by"]
        who = names[reached_by] if isinstance(reached_by, int) else "someone"
        return f"{who} reached the gold, so {WINNING_SIDES['diggers']} win."
    if winner == "saboteurs":
        return f"{not_reached(result)}, so {WINNING_SIDES['saboteurs']} win."
    if winner == "nobody":
        return f"{not_reached(result)}, and with no saboteur in play nobody wins."
    return f"The round went to: {winner.replace('_', ' ')}."


def treasure_outcome(result: dict[str, Any], names: Sequence[str]) -> str:
    """How a Saboteur 2 round was decided: who reached the gold, which team won, which door barred whom."""
    reached_by = result["reached_by"]
    who = f"{names[reached_by]} ({role_name(result['roles'][reached_by])})" if isinstance(reached_by, int) else None
    teams = list(result["teams"])
    barred = [team for team in ("blue", "green") if not result["claims"].get(team)]
    if teams:
        won = " and ".join(teams) + (" team wins" if len(teams) == 1 else " teams win")
        reason = ""
        if len(barred) == 1:
            other = "green" if barred[0] == "blue" else "blue"
            reason = f" (a {other} door bars the {barred[0]} team's way to the gold)"
        elif not barred and len(teams) == 1:
            reason = " (a gold-digger of that team laid the last card)"
        return f"{who or 'Someone'} reached the gold, so the {won}{reason}."
    if who is not None:
        return f"{who} reached the gold, but doors of both colours bar the way, so the saboteurs' side wins."
    if result["winner"] == "saboteurs":
        return f"{not_reached(result)}, so the saboteurs' side wins."
    return f"{not_reached(result)}, and nobody on the saboteurs' side was in play."


def not_reached(result: dict[str, Any]) -> str:
    """Why a round ended without the gold (a round recorded before reasons were kept: the cards ran out)."""
    return NOT_REACHED.get(result.get("reason", ""), CARDS_RAN_OUT)


def payout_line(pay: dict[str, Any], result: dict[str, Any], names: Sequence[str]) -> str:
    """One payout of a Saboteur 2 round, with the rule that made it."""
    name = names[pay["seat"]]
    amount, base, reason = pay["amount"], pay["base"], pay["reason"]
    if reason in ("blue", "green"):
        return f"{name}: {pieces(amount)}, each winner's share, for the {reason} team."
    if reason == "saboteur":
        return f"{name}: {pieces(amount)}, each winner's share, as a Saboteur on the winning side."
    if reason == "boss":
        return (f"{name}: {pieces(amount)} as the Boss: the share of {base}, {less_for_role('boss')} "
                f"(the Boss wins with either team).")
    if reason == "profiteer":
        return (f"{name}: {pieces(amount)} as the Profiteer: the share of {base}, {less_for_role('profiteer')} "
                f"(the Profiteer wins with every side).")
    if reason == "geologist":
        return (f"{name}: {pieces(amount)}, each winner's share, as a Geologist (with this game's rule, Geologists "
                f"win alongside both teams when the Boss, the Profiteer or a Geologist reaches the gold).")
    if reason == "crystals":
        geologists = sum(1 for other in result["payouts"] if other["reason"] == "crystals")
        shared = f", shared by {geologists} Geologists and rounded down" if geologists > 1 else ""
        crystals = f"{base} crystal{'s' if base != 1 else ''}"
        return f"{name}: {pieces(amount)} as a Geologist, for the {crystals} on the table{shared}."
    if reason == "trapped":
        return f"{name}: nothing, being trapped when the round ended."
    return f"{name}: {pieces(amount)}."


def share_line(result: dict[str, Any]) -> str:
    """The share each winner got in a Saboteur 2 round, and the table it comes from ('' when nobody won)."""
    shares = [pay["base"] for pay in result["payouts"] if pay["reason"] in SHARED_REASONS]
    if not shares:
        return ""
    return (
        f"Each winner's share this round: {pieces(shares[0])} ({share_table()}; the Boss gets "
        f"{less_for_role('boss')}, the Profiteer {less_for_role('profiteer')}; trapped players get nothing and are "
        f"not counted)."
    )


def theft_line(theft: dict[str, Any], names: Sequence[str]) -> str:
    name = names[theft["seat"]]
    if theft["outcome"] == "stole":
        return f"{name} played a Theft and stole 1 gold piece from {names[theft['target']]}."
    return f"{name} had a Theft but {THEFT_OUTCOMES.get(theft['outcome'], 'did not steal')}."


def round_gold(result: dict[str, Any], seat: int) -> int:
    """What one seat gained in a Saboteur 2 round: its payout, plus what it stole, less what was stolen from it.
    All of it is public (payouts and thefts happen in the open)."""
    paid = sum(pay["amount"] for pay in result["payouts"] if pay["seat"] == seat)
    stole = sum(1 for theft in result["thefts"] if theft["outcome"] == "stole" and theft["seat"] == seat)
    lost = sum(1 for theft in result["thefts"] if theft["outcome"] == "stole" and theft.get("target") == seat)
    return paid + stole - lost
