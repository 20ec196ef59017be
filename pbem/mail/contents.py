"""What an email says, built only from what its recipient may know.

Every function here takes an engine view (`engine.view(state, seat)`: the seat's own knowledge) and
lines of events that seat may see; none takes the game's state. So an email can say no more than the
turn page of that seat could: other hands, roles before a round ends, unseen goals and other players'
gold values (before the game ends) never reach these functions, let alone a template.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

ROLE_LABELS = {
    "digger": "gold-digger",
    "saboteur": "saboteur",
    "blue_digger": "blue gold-digger",
    "green_digger": "green gold-digger",
    "boss": "Boss",
    "profiteer": "Profiteer",
    "geologist": "Geologist",
}
# Gold pieces per winner in Saboteur 2, as the rulebook's table has it (the engine pays by the same table).
SHARE_TABLE = "5 for a single winner, 4 each for two, 3 each for three, 2 each for four, 1 each for five or more"
THEFT_OUTCOMES = {
    "declined": "chose not to steal",
    "trapped": "could not steal, being trapped",
    "no_gold_to_steal": "found nobody with gold to steal",
}


def role_label(role: str) -> str:
    return ROLE_LABELS.get(role, role.replace("_", " "))


def gold_unit(view: dict[str, Any]) -> tuple[str, str]:
    """What a variant pays in, singular and plural: nugget cards (base) or gold pieces (Saboteur 2)."""
    return ("gold piece", "gold pieces") if view.get("variant") == "saboteur2" else ("nugget", "nuggets")


def pieces(amount: int) -> str:
    return f"{amount} gold piece{'s' if amount != 1 else ''}"


def _you(view: dict[str, Any]) -> int | None:
    seat = view.get("seat")
    return seat if isinstance(seat, int) else None


def outcome(result: dict[str, Any], names: Sequence[str]) -> str:
    """How a finished round was decided, in one sentence."""
    winner = result["winner"]
    if winner == "diggers":
        reached_by = result["reached_by"]
        who = names[reached_by] if isinstance(reached_by, int) else "someone"
        return f"{who} reached the gold, so the gold-diggers win."
    if winner == "saboteurs":
        return "The cards ran out before anyone reached the gold, so the saboteurs win."
    if winner == "nobody":
        return "The cards ran out before anyone reached the gold, and with no saboteur in play nobody wins."
    return f"The round went to: {winner.replace('_', ' ')}."


def round_result(result: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    """A finished round as the view shows it: roles (public once a round ends), gold card counts, payouts."""
    if "payouts" in result:
        return treasure_result(result, view)
    names = view["players"]
    you = _you(view)
    return {
        "treasure": False,
        "round": result["round"],
        "outcome": outcome(result, names),
        "seats": [
            {"name": names[s], "is_you": s == you, "role": role_label(role), "gold_cards": result["gold_cards"][s]}
            for s, role in enumerate(result["roles"])
        ],
        "spare_roles": [role_label(role) for role in result["spare_roles"]],
        "saboteur_pay": [
            {"name": names[pay["seat"]], "nuggets": pay["nuggets"], "due": pay["due"], "card_count": pay["card_count"]}
            for pay in result["saboteur_pay"]
        ],
    }


def treasure_outcome(result: dict[str, Any], names: Sequence[str]) -> str:
    """How a Saboteur 2 round was decided: who reached the gold, which team won, which door barred whom."""
    reached_by = result["reached_by"]
    who = f"{names[reached_by]} ({role_label(result['roles'][reached_by])})" if isinstance(reached_by, int) else None
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
        return "The cards ran out before anyone reached the gold, so the saboteurs' side wins."
    return "The cards ran out before anyone reached the gold, and nobody on the saboteurs' side was in play."


def payout_line(pay: dict[str, Any], result: dict[str, Any], names: Sequence[str]) -> str:
    """One payout of a Saboteur 2 round, with the rule that made it."""
    name = names[pay["seat"]]
    amount, base, reason = pay["amount"], pay["base"], pay["reason"]
    if reason in ("blue", "green"):
        return f"{name}: {pieces(amount)}, each winner's share, for the {reason} team."
    if reason == "saboteur":
        return f"{name}: {pieces(amount)}, each winner's share, as a Saboteur on the winning side."
    if reason == "boss":
        return f"{name}: {pieces(amount)} as the Boss: the share of {base}, one less (the Boss wins with either team)."
    if reason == "profiteer":
        return (f"{name}: {pieces(amount)} as the Profiteer: the share of {base}, two less "
                f"(the Profiteer wins with every side).")
    if reason == "crystals":
        geologists = sum(1 for other in result["payouts"] if other["reason"] == "crystals")
        shared = f", shared by {geologists} Geologists and rounded down" if geologists > 1 else ""
        crystals = f"{base} crystal{'s' if base != 1 else ''}"
        return f"{name}: {pieces(amount)} as a Geologist, for the {crystals} on the table{shared}."
    if reason == "trapped":
        return f"{name}: nothing, being trapped when the round ended."
    return f"{name}: {pieces(amount)}."


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


def treasure_result(result: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    """A finished Saboteur 2 round: every dwarf card, each payout with its reason, the thefts."""
    names = view["players"]
    you = _you(view)
    trapped = set(result["trapped"])
    winners = sum(1 for pay in result["payouts"] if pay["reason"] in ("blue", "green", "saboteur"))
    shares = [pay["base"] for pay in result["payouts"] if pay["reason"] in ("blue", "green", "saboteur", "boss", "profiteer")]
    return {
        "round": result["round"],
        "outcome": treasure_outcome(result, names),
        "seats": [
            {
                "name": names[s],
                "is_you": s == you,
                "role": role_label(role).replace("saboteur", "Saboteur"),
                "trapped": s in trapped,
                "gold_pieces": round_gold(result, s),
            }
            for s, role in enumerate(result["roles"])
        ],
        "spare_roles": [],
        "saboteur_pay": [],
        "treasure": True,
        "share_line": (
            f"Each winner's share this round: {pieces(shares[0])} ({SHARE_TABLE}; the Boss gets one less, "
            f"the Profiteer two less; trapped players get nothing and are not counted)."
            if shares else ""
        ),
        "winners_counted": winners,
        "crystals": result["crystals"],
        "payouts": [payout_line(pay, result, names) for pay in result["payouts"]],
        "thefts": [theft_line(theft, names) for theft in result["thefts"]],
        "hats_swapped": len(result["discarded_roles"]),
    }


def standings(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Gold cards per seat so far: the count is public, the values are not (until the game ends)."""
    you = _you(view)
    return [
        {"name": s["name"], "is_you": s["seat"] == you, "gold_cards": s["gold_cards"], "has_gold": s.get("has_gold")}
        for s in view["seats"]
    ]


def table(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Every seat's public situation: cards in hand, broken tools, gold cards, whose turn."""
    you = _you(view)
    return [
        {
            "name": s["name"],
            "is_you": s["seat"] == you,
            "hand_count": s["hand_count"],
            "broken": list(s["broken"]),
            "gold_cards": s["gold_cards"],
            "to_act": s["to_act"],
        }
        for s in view["seats"]
    ]


def your_turn(view: dict[str, Any], lines: list[str], deadline: str | None) -> dict[str, Any]:
    you = view["you"]
    steal = view.get("steal")
    stealing = bool(steal) and steal["seat"] == _you(view)
    return {
        "lines": lines,
        "deadline": deadline,
        "round": view["round"],
        "gold_pick": you.get("offer") is not None,
        "offer": you.get("offer") or [],
        "steal": stealing,
        "steal_targets": [view["players"][t] for t in steal["targets"]] if stealing else [],
    }


def round_digest(
    view: dict[str, Any], round_number: int, values_this_round: list[int], next_line: str
) -> dict[str, Any]:
    """The end of one round for one seat: everything public about it, plus that seat's own gold."""
    result = next(r for r in view["results"] if r["round"] == round_number)
    you = view["you"]
    treasure = "payouts" in result
    return {
        "treasure": treasure,
        "round_pieces": round_gold(result, you["seat"]) if treasure else 0,
        "your_pieces": you.get("gold_pieces", 0),
        "result": round_result(result, view),
        "your_values": sorted(values_this_round, reverse=True),
        "your_gold": list(you["gold"]),
        "your_total": you["gold_total"],
        "standings": standings(view),
        "next_line": next_line,
    }


def game_over(view: dict[str, Any]) -> dict[str, Any]:
    """Everything, now that the game is over: every round's roles and payouts, every seat's gold, the winners."""
    final = view["final"]
    names = view["players"]
    you = _you(view)
    unit, units = gold_unit(view)
    return {
        "unit": unit,
        "units": units,
        "treasure": view.get("variant") == "saboteur2",
        "rounds": [round_result(result, view) for result in view["results"]],
        "players": [
            {
                "name": name,
                "is_you": s == you,
                "gold": list(final["gold"][s]),
                "total": final["scores"][s],
                "winner": s in final["winners"],
            }
            for s, name in enumerate(names)
        ],
        "winners": [names[s] for s in final["winners"]],
        "you_won": you in final["winners"],
    }


def daily_digest(
    view: dict[str, Any], lines: list[str], more: int, waiting_since: str | None, deadline: str | None
) -> dict[str, Any]:
    """A day of the game for a seat that asked for one email a day instead of one per turn."""
    to_act = view["to_act"]
    return {
        "round": view["round"],
        "rounds": view["rounds"],
        "your_turn": to_act is not None and to_act == _you(view),
        "gold_pick": view["you"].get("offer") is not None,
        "to_act_name": view["players"][to_act] if to_act is not None else None,
        "waiting_since": waiting_since,
        "deadline": deadline,
        "table": table(view),
        "draw_pile": view["draw_pile"],
        "board_cards": len(view["board"]),
        "goals_revealed": sum(1 for goal in view["goals"] if goal["revealed"]),
        "lines": lines,
        "more": more,
    }
