"""What an email says, built only from what its recipient may know.

Every function here takes an engine view (`engine.view(state, seat)`: the seat's own knowledge) and
lines of events that seat may see; none takes the game's state. So an email can say no more than the
turn page of that seat could: other hands, roles before a round ends, unseen goals and other players'
gold values (before the game ends) never reach these functions, let alone a template.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from babel.dates import format_date

import engine
from pbem.i18n import current_locale, gettext, ngettext, pgettext
from pbem.results_text import (
    gold_unit,
    outcome,
    payout_line,
    round_gold,
    share_line,
    theft_line,
)
from pbem.times import format_moment
from pbem.words.cards import tool_name
from pbem.words.counting import and_list
from pbem.words.roles import role_name
from pbem.words.table import N_, Words

# Who won a finished round, in the few words of an inbox line (`round_headline`): one whole message each.
WHO_WON = Words({
    "diggers": N_("the gold-diggers won"),
    "saboteurs": N_("the saboteurs won"),
    "nobody": N_("nobody won"),
    "saboteurs' side": N_("the saboteurs' side won"),
    "blue": N_("the blue team won"),
    "green": N_("the green team won"),
    "blue green": N_("the blue and green teams won"),
    "green blue": N_("the green and blue teams won"),
})


def _you(view: engine.View) -> int | None:
    seat = view.get("seat")
    return seat if isinstance(seat, int) else None


def round_result(result: engine.RoundResult, view: engine.View) -> dict[str, Any]:
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
            {"name": names[s], "is_you": s == you, "role": role_name(role), "gold_cards": result["gold_cards"][s]}
            for s, role in enumerate(result["roles"])
        ],
        "spare_roles": [role_name(role) for role in result["spare_roles"]],
        "saboteur_pay": [
            {"name": names[pay["seat"]], "nuggets": pay["nuggets"], "due": pay["due"], "card_count": pay["card_count"]}
            for pay in result["saboteur_pay"]
        ],
    }


def treasure_result(result: engine.RoundResult, view: engine.View) -> dict[str, Any]:
    """A finished Saboteur 2 round: every dwarf card, each payout with its reason, the thefts."""
    names = view["players"]
    you = _you(view)
    trapped = set(result["trapped"])
    return {
        "round": result["round"],
        "outcome": outcome(result, names),
        "seats": [
            {
                "name": names[s],
                "is_you": s == you,
                "role": role_name(role),
                "trapped": s in trapped,
                "gold_pieces": round_gold(result, s),
            }
            for s, role in enumerate(result["roles"])
        ],
        "spare_roles": [],
        "saboteur_pay": [],
        "treasure": True,
        "share_line": share_line(result),
        "crystals": result["crystals"],
        "payouts": [payout_line(pay, result, names) for pay in result["payouts"]],
        "thefts": [theft_line(theft, names) for theft in result["thefts"]],
        "hats_swapped": result.get("hats_swapped", 0),
    }


def standings(view: engine.View) -> list[dict[str, Any]]:
    """Gold cards per seat so far: the count is public, the values are not (until the game ends)."""
    you = _you(view)
    return [
        {"name": s["name"], "is_you": s["seat"] == you, "gold_cards": s["gold_cards"], "has_gold": s.get("has_gold")}
        for s in view["seats"]
    ]


def table(view: engine.View) -> list[dict[str, Any]]:
    """Every seat's public situation: cards in hand, broken tools, gold cards, whose turn."""
    you = _you(view)
    return [
        {
            "name": s["name"],
            "is_you": s["seat"] == you,
            "hand_count": s["hand_count"],
            "broken": [tool_name(tool) for tool in s["broken"]],
            "gold_cards": s["gold_cards"],
            "has_gold": s.get("has_gold"),  # Saboteur 2: whether the seat holds gold pieces (how many is secret)
            "to_act": s["to_act"],
        }
        for s in view["seats"]
    ]


def your_turn(view: engine.View, lines: list[str], deadline: str | None) -> dict[str, Any]:
    you = view["you"]
    steal = view.get("steal")
    stealing = steal is not None and steal["seat"] == _you(view)
    return {
        "lines": lines,
        "deadline": deadline,
        "round": view["round"],
        "gold_pick": you.get("offer") is not None,
        "offer": you.get("offer") or [],
        "steal": stealing,
        "steal_targets": [view["players"][t] for t in steal["targets"]] if steal is not None and stealing else [],
    }


def board_picture(public_view: engine.View, content_id: str) -> dict[str, Any]:
    """The turn email's picture of the board (`cid:` of the inline PNG) and its words for who cannot see it."""
    face_down = sum(1 for goal in public_view["goals"] if not goal["revealed"])
    cards = len(public_view["board"])
    return {
        "cid": content_id,
        "alt": gettext(
            "The board: %(cards)s, %(goals)s.",
            cards=ngettext("%(num)d card on the table", "%(num)d cards on the table", cards),
            goals=ngettext("%(num)d goal still face down", "%(num)d goals still face down", face_down),
        ),
    }


def hand(view: engine.View) -> list[str]:
    """The seat's own hand by the cards' printed names (only for a seat that asked to see it in its turn emails)."""
    return [card["label"] for card in view["you"]["hand"]]


def round_digest(
    view: engine.View, round_number: int, values_this_round: list[int], next_line: str
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
        "headline": round_headline(result),
    }


def round_headline(result: engine.RoundResult) -> str:
    """Who won a finished round, in the few words of an inbox line: "the saboteurs won", "the blue team won"."""
    if "payouts" in result:  # Saboteur 2: teams, or the saboteurs' side
        teams = " ".join(result["teams"])
        if teams:
            return WHO_WON[teams] if teams in WHO_WON else f"the {teams.replace(' ', ' and ')} teams won"
        return WHO_WON["saboteurs' side" if result["winner"] == "saboteurs" else "nobody"]
    return WHO_WON[result["winner"] if result["winner"] in ("diggers", "saboteurs") else "nobody"]


def day_words(day: date) -> str:
    """A daily email's day as its reader writes it: "Monday 5 January", "Montag, 5. Januar", "1월 5일 월요일"."""
    return format_date(day, pgettext("a daily email's day, a Babel date pattern", "EEEE d MMMM"),
                       locale=current_locale())


def game_over(view: engine.View) -> dict[str, Any]:
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
        "winners_named": and_list([names[s] for s in final["winners"]]),  # "Ann, Bo and Cy"
        "won_with": and_list([names[s] for s in final["winners"] if s != you]),  # the recipient's fellow winners
        "you_won": you in final["winners"],
    }


def daily_digest(
    view: engine.View, lines: list[str], more: int, waiting_since: str | None, deadline: str | None
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


def chat(lines: Sequence[Any], more: int, zone_name: str) -> dict[str, Any]:
    """Table talk for an email: the newest unread messages (pbem.service.talk.chat.ChatLine), oldest first.

    Text stays text: the HTML part escapes it like any other value and makes no links of it.
    """
    return {
        "chat": [
            {
                "name": line.name or "",
                "system": line.is_system,
                "when": format_moment(line.created_at, zone_name),
                "lines": line.said.split("\n"),
            }
            for line in lines
        ],
        "chat_more": more,
        "chat_zone": zone_name or "UTC",
    }
