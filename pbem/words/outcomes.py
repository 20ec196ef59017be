"""How a round was decided and what it paid, in words: the one wording of a round's result, for the log, the
turn page, the emails and the spectators alike."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.treasure import LESS_FOR_ROLE, SHARE_BY_WINNERS, SHARE_FOR_MANY
from pbem.i18n import gettext, ngettext
from pbem.words.counting import count_word
from pbem.words.roles import role_name
from pbem.words.table import N_

# A round that ended without the gold, by its `reason` ("" for a round recorded before reasons were kept) and how
# it ended: the saboteurs won, nobody won (no saboteur in play), or in Saboteur 2 the saboteurs' side.
NOT_REACHED = {
    ("no_playable_cards", "saboteurs"): N_(
        "the draw pile ran out and nobody could play a card before anyone reached the gold, so the saboteurs win."),
    ("no_playable_cards", "nobody"): N_(
        "the draw pile ran out and nobody could play a card before anyone reached the gold, and with no saboteur in "
        "play nobody wins."),
    ("no_playable_cards", "side"): N_(
        "the draw pile ran out and nobody could play a card before anyone reached the gold, so the saboteurs' side "
        "wins."),
    ("no_playable_cards", "no_side"): N_(
        "the draw pile ran out and nobody could play a card before anyone reached the gold, and with nobody on the "
        "saboteurs' side in play nobody wins."),
    ("hands_empty", "saboteurs"): N_(
        "every hand was played out before anyone reached the gold, so the saboteurs win."),
    ("hands_empty", "nobody"): N_(
        "every hand was played out before anyone reached the gold, and with no saboteur in play nobody wins."),
    ("hands_empty", "side"): N_(
        "every hand was played out before anyone reached the gold, so the saboteurs' side wins."),
    ("hands_empty", "no_side"): N_(
        "every hand was played out before anyone reached the gold, and with nobody on the saboteurs' side in play "
        "nobody wins."),
    ("", "saboteurs"): N_("the cards ran out before anyone reached the gold, so the saboteurs win."),
    ("", "nobody"): N_("the cards ran out before anyone reached the gold, and with no saboteur in play nobody wins."),
    ("", "side"): N_("the cards ran out before anyone reached the gold, so the saboteurs' side wins."),
    ("", "no_side"): N_(
        "the cards ran out before anyone reached the gold, and with nobody on the saboteurs' side in play nobody "
        "wins."),
}

Who = Callable[[Any], str]
IsYou = Callable[[Any], bool]


def sentence(line: str) -> str:
    """A line starts with a capital, and a card name that ends in "!" takes no full stop after it."""
    line = line[:1].upper() + line[1:]
    return line[:-1] if line.endswith("!.") else line


def _not_reached(result: Mapping[str, Any], ending: str) -> str:
    reason = result.get("reason", "")
    return gettext(NOT_REACHED[(reason if (reason, ending) in NOT_REACHED else "", ending)])


def round_outcome(result: Mapping[str, Any], who: Who, you: IsYou | None = None) -> str:
    """How a finished round was decided, in one sentence: "Ann reached the gold, so the gold-diggers win."

    `result` is the round's entry in `results` or its `round_ended` event (both public); `who` names a seat, and
    `you` says whether a seat is the reader (then "you reached the gold")."""
    return sentence(outcome_clause(result, who, you))


def outcome_clause(result: Mapping[str, Any], who: Who, you: IsYou | None = None) -> str:
    """The outcome as it goes on after "Round 1 is over: " (not capitalised)."""
    if "teams" in result:
        return _treasure_outcome(result, who, you or (lambda _seat: False))
    winner = result["winner"]
    if winner == "diggers":
        if you is not None and you(result["reached_by"]):
            return gettext("you reached the gold, so the gold-diggers win.")
        return gettext("%(name)s reached the gold, so the gold-diggers win.", name=who(result["reached_by"]))
    if winner in ("saboteurs", "nobody"):
        return _not_reached(result, winner)
    return gettext("the round went to: %(winner)s.", winner=str(winner).replace("_", " "))


def _treasure_outcome(result: Mapping[str, Any], who: Who, you: IsYou) -> str:
    """A Saboteur 2 round: who reached the gold (with their dwarf card), which team won, which door barred whom."""
    reached_by = result["reached_by"]
    teams = list(result["teams"])
    barred = [team for team in ("blue", "green") if not result["claims"].get(team)]
    if not isinstance(reached_by, int):
        if teams:
            return gettext(TEAMS_WIN[_how_teams_win(teams, barred)], reacher=gettext("someone"))
        return _not_reached(result, "side" if result["winner"] == "saboteurs" else "no_side")
    role = role_name(result["roles"][reached_by])
    if you(reached_by):
        if teams:
            return gettext(YOU_TEAMS_WIN[_how_teams_win(teams, barred)], role=role)
        return gettext("you (%(role)s) reached the gold, but doors of both colours bar the way, so the saboteurs' "
                       "side wins.", role=role)
    reacher = gettext("%(name)s (%(role)s)", name=who(reached_by), role=role)
    if teams:
        return gettext(TEAMS_WIN[_how_teams_win(teams, barred)], reacher=reacher)
    return gettext("%(reacher)s reached the gold, but doors of both colours bar the way, so the saboteurs' side "
                   "wins.", reacher=reacher)


def _how_teams_win(teams: list[str], barred: list[str]) -> str:
    """Which teams won and why: "both", "blue" (a door barred the other), "blue_last" (its own laid the last card)."""
    if len(teams) > 1:
        return "both"
    if barred == [t for t in ("blue", "green") if t not in teams]:  # the other team's way was barred by a door
        return teams[0]
    return f"{teams[0]}_last" if not barred else f"{teams[0]}_only"


# The teams that won a Saboteur 2 round, and why (`_how_teams_win`), after whoever reached the gold.
TEAMS_WIN = {
    "both": N_("%(reacher)s reached the gold, so the blue and green teams win."),
    "blue": N_("%(reacher)s reached the gold, so the blue team wins (a Blue door bars the green team's way to the "
               "gold)."),
    "green": N_("%(reacher)s reached the gold, so the green team wins (a Green door bars the blue team's way to the "
                "gold)."),
    "blue_last": N_("%(reacher)s reached the gold, so the blue team wins (a gold-digger of that team laid the last "
                    "card)."),
    "green_last": N_("%(reacher)s reached the gold, so the green team wins (a gold-digger of that team laid the last "
                     "card)."),
    "blue_only": N_("%(reacher)s reached the gold, so the blue team wins."),
    "green_only": N_("%(reacher)s reached the gold, so the green team wins."),
}
# The same when the reader reached the gold.
YOU_TEAMS_WIN = {
    "both": N_("you (%(role)s) reached the gold, so the blue and green teams win."),
    "blue": N_("you (%(role)s) reached the gold, so the blue team wins (a Blue door bars the green team's way to the "
               "gold)."),
    "green": N_("you (%(role)s) reached the gold, so the green team wins (a Green door bars the blue team's way to the "
                "gold)."),
    "blue_last": N_("you (%(role)s) reached the gold, so the blue team wins (a gold-digger of that team laid the last "
                    "card)."),
    "green_last": N_("you (%(role)s) reached the gold, so the green team wins (a gold-digger of that team laid the "
                     "last card)."),
    "blue_only": N_("you (%(role)s) reached the gold, so the blue team wins."),
    "green_only": N_("you (%(role)s) reached the gold, so the green team wins."),
}


def share_table() -> str:
    """Saboteur 2's gold pieces per winner, in words, from the table the payout uses."""
    most = max(SHARE_BY_WINNERS)
    parts = [gettext("%(share)s for a single winner", share=share) if winners == 1
             else gettext("%(share)s each for %(winners)s", share=share, winners=count_word(winners))
             for winners, share in sorted(SHARE_BY_WINNERS.items())]
    parts.append(gettext("%(share)s each for %(winners)s or more", share=SHARE_FOR_MANY,
                         winners=count_word(most + 1)))
    return ", ".join(parts)


def less_for_role(role: str) -> str:
    """How much less than the share a role is paid, in words: "one less" (the Boss), "two less" (the Profiteer)."""
    return gettext("%(count)s less", count=count_word(LESS_FOR_ROLE[role]))


def pieces(amount: int) -> str:
    """ "1 gold piece", "3 gold pieces"."""
    return ngettext("%(num)d gold piece", "%(num)d gold pieces", amount)
