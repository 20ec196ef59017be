"""Finished rounds in words, for the turn page and the emails alike.

Every function reads a round's public record (`view["results"]`: roles, winner, Saboteur 2 payouts and
thefts, all public once a round has ended) and seat names; none sees anything hidden.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.text import THEFT_OUTCOMES, less_for_role, round_outcome, share_table

# Payout reasons whose `base` is the winners' share (a Geologist's `base` counts crystals instead).
SHARED_REASONS = ("blue", "green", "saboteur", "boss", "profiteer", "geologist")


def gold_unit(view: dict[str, Any]) -> tuple[str, str]:
    """What a variant pays in, singular and plural: nugget cards (base) or gold pieces (Saboteur 2)."""
    return ("gold piece", "gold pieces") if view.get("variant") == "saboteur2" else ("nugget", "nuggets")


def pieces(amount: int) -> str:
    return f"{amount} gold piece{'s' if amount != 1 else ''}"


def outcome(result: dict[str, Any], names: Sequence[str]) -> str:
    """How a finished round was decided, in one sentence: the words of its line in the log
    (`engine.text.round_outcome`), here and on every page and email that tells a round's result."""
    return round_outcome(result, lambda seat: names[seat] if isinstance(seat, int) else "someone")


def payout_line(pay: dict[str, Any], result: dict[str, Any], names: Sequence[str]) -> str:
    """One payout of a Saboteur 2 round, with the rule that made it."""
    name = names[pay["seat"]]
    amount, base, reason = pay["amount"], pay["base"], pay["reason"]
    if reason in ("blue", "green"):
        return f"{name}: {pieces(amount)}, each winner's share, for the {reason} team."
    if reason == "saboteur":
        return f"{name}: {pieces(amount)}, each winner's share, as a saboteur on the winning side."
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
