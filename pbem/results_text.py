"""Finished rounds in words, for the turn page and the emails alike.

Every function reads a round's public record (`view["results"]`: roles, winner, Saboteur 2 payouts and
thefts, all public once a round has ended) and seat names; none sees anything hidden.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import engine
from pbem.i18n import gettext, ngettext
from pbem.words.outcomes import less_for_role, pieces, round_outcome, share_table
from pbem.words.table import N_

# Payout reasons whose `base` is the winners' share (a Geologist's `base` counts crystals instead).
SHARED_REASONS = ("blue", "green", "saboteur", "boss", "profiteer", "geologist")


def gold_unit(view: Mapping[str, Any]) -> tuple[str, str]:
    """What a variant pays in, singular and plural: nugget cards (base) or gold pieces (Saboteur 2)."""
    if view.get("variant") == "saboteur2":
        return gettext("gold piece"), gettext("gold pieces")
    return gettext("nugget"), gettext("nuggets")


def outcome(result: engine.RoundResult, names: Sequence[str]) -> str:
    """How a finished round was decided, in one sentence: the words of its line in the log
    (`pbem.words.outcomes.round_outcome`), here and on every page and email that tells a round's result."""
    return round_outcome(result, lambda seat: names[seat] if isinstance(seat, int) else gettext("someone"))


def payout_line(pay: engine.Payout, result: engine.RoundResult, names: Sequence[str]) -> str:
    """One payout of a Saboteur 2 round, with the rule that made it."""
    name = names[pay["seat"]]
    amount, base, reason = pay["amount"], pay["base"], pay["reason"]
    fields = {"name": name, "pieces": pieces(amount)}
    if reason == "blue":
        return gettext("%(name)s: %(pieces)s, each winner's share, for the blue team.", **fields)
    if reason == "green":
        return gettext("%(name)s: %(pieces)s, each winner's share, for the green team.", **fields)
    if reason == "saboteur":
        return gettext("%(name)s: %(pieces)s, each winner's share, as a saboteur on the winning side.", **fields)
    if reason == "boss":
        return gettext("%(name)s: %(pieces)s as the Boss: the share of %(base)s, %(less)s (the Boss wins with either "
                       "team).", base=base, less=less_for_role("boss"), **fields)
    if reason == "profiteer":
        return gettext("%(name)s: %(pieces)s as the Profiteer: the share of %(base)s, %(less)s (the Profiteer wins "
                       "with every side).", base=base, less=less_for_role("profiteer"), **fields)
    if reason == "geologist":
        return gettext("%(name)s: %(pieces)s, each winner's share, as a Geologist (with this game's rule, Geologists "
                       "win alongside both teams when the Boss, the Profiteer or a Geologist reaches the gold).",
                       **fields)
    if reason == "crystals":
        geologists = sum(1 for other in result["payouts"] if other["reason"] == "crystals")
        crystals = ngettext("%(num)d crystal", "%(num)d crystals", base)
        if geologists > 1:
            return gettext("%(name)s: %(pieces)s as a Geologist, for the %(crystals)s on the table, shared by "
                           "%(geologists)s Geologists and rounded down.", crystals=crystals, geologists=geologists,
                           **fields)
        return gettext("%(name)s: %(pieces)s as a Geologist, for the %(crystals)s on the table.", crystals=crystals,
                       **fields)
    if reason == "trapped":
        return gettext("%(name)s: nothing, being trapped when the round ended.", name=name)
    return gettext("%(name)s: %(pieces)s.", **fields)


def share_line(result: engine.RoundResult) -> str:
    """The share each winner got in a Saboteur 2 round, and the table it comes from ('' when nobody won)."""
    shares = [pay["base"] for pay in result["payouts"] if pay["reason"] in SHARED_REASONS]
    if not shares:
        return ""
    return gettext(
        "Each winner's share this round: %(pieces)s (%(table)s; the Boss gets %(boss)s, the Profiteer %(profiteer)s; "
        "trapped players get nothing and are not counted).", pieces=pieces(shares[0]), table=share_table(),
        boss=less_for_role("boss"), profiteer=less_for_role("profiteer"))


def theft_line(theft: engine.Theft, names: Sequence[str]) -> str:
    name = names[theft["seat"]]
    told = {"stole": N_("%(name)s played a Theft and stole 1 gold piece from %(target)s."),
            "declined": N_("%(name)s had a Theft but chose not to steal."),
            "trapped": N_("%(name)s had a Theft but could not steal, being trapped."),
            "no_gold_to_steal": N_("%(name)s had a Theft but found nobody with gold to steal.")}
    message = told.get(theft["outcome"], N_("%(name)s had a Theft but did not steal."))
    target = theft.get("target")
    return gettext(message, name=name, target=names[target] if isinstance(target, int) else "")


def round_gold(result: engine.RoundResult, seat: int) -> int:
    """What one seat gained in a Saboteur 2 round: its payout, plus what it stole, less what was stolen from it.
    All of it is public (payouts and thefts happen in the open)."""
    paid = sum(pay["amount"] for pay in result["payouts"] if pay["seat"] == seat)
    stole = sum(1 for theft in result["thefts"] if theft["outcome"] == "stole" and theft["seat"] == seat)
    lost = sum(1 for theft in result["thefts"] if theft["outcome"] == "stole" and theft.get("target") == seat)
    return paid + stole - lost
