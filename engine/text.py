"""The game's words, in one place: role, goal, side and payout names, and one line of English per event.

Pages and emails take their words from here. An event line uses only the event and the seat names, so a line
never says more than its event.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

from .geometry import FROM_LETTER, SIDE_NAME
from .treasure import LESS_FOR_ROLE, SHARE_BY_WINNERS, SHARE_FOR_MANY
from .variants import VARIANTS

ROLE_NAMES = {"digger": "gold-digger", "saboteur": "saboteur", "blue_digger": "blue gold-digger",
              "green_digger": "green gold-digger", "boss": "Boss", "profiteer": "Profiteer", "geologist": "Geologist"}
# How each role wins, one line each (the rules decide it; this only says it).
ROLE_GOALS = {
    "digger": "Build a tunnel from the start to the gold. Someone at the table may be working against you.",
    "saboteur": "Keep the tunnel from reaching the gold, without being found out.",
    "blue_digger": "Reach the gold on a way the blue team may use: a green door in the tunnel bars your team.",
    "green_digger": "Reach the gold on a way the green team may use: a blue door in the tunnel bars your team.",
    "boss": "Win with whichever team reaches the gold, for one gold piece less than the share.",
    "profiteer": "Win with every side, gold-diggers or saboteurs, for two gold pieces less.",
    "geologist": "Never mind the gold: you and the other Geologist share the crystals lying on the table.",
}
DWARF_SABOTEUR_GOAL = "Keep the gold from being reached; the gold-diggers and the Boss lose then."
# With option `geologists_share_gold` a Geologist also wins alongside both teams in some rounds.
GEOLOGIST_SHARING_GOAL = (
    "You and the other Geologist share the crystals lying on the table; and when the Boss, the Profiteer or a "
    "Geologist reaches the gold, you also win a share with both teams (this game's rule)."
)
# The winning side of a base-game round (a round result's `winner`).
WINNING_SIDES = {"diggers": "the gold-diggers", "saboteurs": "the saboteurs", "nobody": "nobody"}
# The three goals, top to bottom (goal rows y = 2, 0, -2).
GOAL_PLACES = ("top", "middle", "bottom")
PAYOUT_REASONS = {
    "blue": "for the blue team", "green": "for the green team", "boss": "as the Boss, one less than the share",
    "profiteer": "as the Profiteer, two less than the share", "saboteur": "as a saboteur",
    "crystals": "for the crystals in the tunnels", "trapped": "nothing, being trapped",
    "geologist": "as a Geologist, sharing the win of the non-saboteurs",
}
# Why a Theft took nothing (a theft's `outcome` other than "stole").
THEFT_OUTCOMES = {"declined": "chose not to steal", "trapped": "could not steal, being trapped",
                  "no_gold_to_steal": "found nobody with gold to steal"}
COUNT_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


@cache  # the variants are fixed data: one table for the life of the process
def _labels() -> dict[str, str]:
    labels: dict[str, str] = {}
    for variant in VARIANTS.values():
        for card in variant.cards:
            labels.setdefault(card.name, card.label)
    return labels


def card_label(name: str) -> str:
    """A card's name as printed on it ("T-junction", "Swap Your Hand", "Free at last!"), never lower-cased."""
    return _labels().get(name, name.replace("_", " "))


def plural(count: int, word: str, words: str | None = None) -> str:
    """ "0 nuggets", "1 nugget", "2 nuggets": never "nugget(s)"."""
    return f"{count} {word if count == 1 else (words or word + 's')}"


def goal_place(event: Mapping[str, Any]) -> str:
    y = event.get("y", 0)
    return dict(zip((2, 0, -2), GOAL_PLACES, strict=False)).get(y, f"({event.get('x')}, {y})")


def side_name(letter: str) -> str:
    """A card edge by its letter (N, E, S, W): top, right, bottom, left."""
    return SIDE_NAME[FROM_LETTER[letter]]


def role_name(role: str) -> str:
    return ROLE_NAMES.get(role, role.replace("_", " "))


def role_title(role: str) -> str:
    """A role's name at the start of a line or as a label: "Gold-digger", "Saboteur", "Boss"."""
    name = role_name(role)
    return name[:1].upper() + name[1:]


def role_goal(role: str, variant: str, options: Mapping[str, Any] | None = None) -> str:
    """One line on how a role wins, under the game's variant and options ('' for a role without one)."""
    if variant == "saboteur2" and role == "saboteur":
        return DWARF_SABOTEUR_GOAL
    if role == "geologist" and (options or {}).get("geologists_share_gold"):
        return GEOLOGIST_SHARING_GOAL
    return ROLE_GOALS.get(role, "")


def share_table() -> str:
    """Saboteur 2's gold pieces per winner, in words, from the table the payout uses."""
    most = max(SHARE_BY_WINNERS)
    parts = [f"{share} for a single winner" if winners == 1 else f"{share} each for {COUNT_WORDS[winners]}"
             for winners, share in sorted(SHARE_BY_WINNERS.items())]
    parts.append(f"{SHARE_FOR_MANY} each for {COUNT_WORDS[most + 1]} or more")
    return ", ".join(parts)


def less_for_role(role: str) -> str:
    """How much less than the share a role is paid, in words: "one less" (the Boss), "two less" (the Profiteer)."""
    return f"{COUNT_WORDS[LESS_FOR_ROLE[role]]} less"


def and_list(words: Sequence[str]) -> str:
    """Words in a row as a sentence lists them: "Ann", "Ann and Bo", "Ann, Bo and Cy" (never "Ann and Bo and Cy")."""
    if len(words) > 1:
        return ", ".join(words[:-1]) + " and " + words[-1]
    return words[0] if words else ""


def card_list(names: list[str]) -> str:
    """Cards by their printed names: "Map", "Curve and Map", "Curve, Map and Theft"."""
    return and_list([card_label(n) for n in names]) or "nothing"


class _Reader:
    """Who is who in a line read by one seat: that seat is "you" (with its verbs), the others go by name."""

    def __init__(self, event: Mapping[str, Any], names: Sequence[str], you: int | None) -> None:
        self.event, self.names, self.you = event, names, you

    def seat(self, key: str) -> Any:
        return self.event.get(key)

    def is_you(self, key: str = "seat") -> bool:
        return self.you is not None and self.seat(key) == self.you

    def who(self, key: str = "seat") -> str:
        seat = self.seat(key)
        if self.is_you(key):
            return "you"
        return self.names[seat] if isinstance(seat, int) and 0 <= seat < len(self.names) else "someone"

    def whose(self, key: str = "seat") -> str:
        return "your" if self.is_you(key) else f"{self.who(key)}'s"

    def does(self, key: str, third: str, second: str) -> str:
        """The verb for the seat under `key`: "has" for a name, "have" for you."""
        return f"{self.who(key)} {second if self.is_you(key) else third}"

    def them(self) -> str:
        """The target of an action: "themselves" ("yourself") when a player played it on their own seat."""
        if self.seat("seat") == self.seat("target"):
            return "yourself" if self.is_you() else "themselves"
        return self.who("target")

    def own(self) -> str:
        return "yourself" if self.is_you() else "themselves"


def describe_event(event: dict[str, Any], names: Sequence[str], you: int | None = None) -> str:
    """One line of English for one event. `you`: the seat reading it, called "you" (None: everyone by name)."""
    r = _Reader(event, names, you)
    who, does = r.who, r.does

    def count(word: str, words: str | None = None) -> str:
        return plural(event["count"], word, words)

    describe: dict[str, Callable[[], str]] = {
        "round_started": lambda: _round_started(event, r),
        "role_dealt": lambda: f"Your role this round: {role_name(event['role'])}.",
        "hand_dealt": lambda: f"Your hand: {card_list(event.get('names', []))}.",
        "path_placed": lambda: (f"{who()} built a {card_label(event['name'])} at ({event['x']}, {event['y']})"
                                + (", turned around." if event.get("rotated") else ".")),
        "goal_revealed": lambda: (f"The {goal_place(event)} goal is turned over: "
                                  + ("GOLD!" if event["gold"] else "only stone.")),
        "tool_broken": lambda: f"{who()} broke {r.whose('target')} {event['tool']}.",
        "tool_repaired": lambda: (f"{who()} repaired "
                                  + (("your own" if r.is_you() else "their own") if event["seat"] == event["target"]
                                     else r.whose("target"))
                                  + f" {event['tool']}."),
        "rockfall": lambda: (f"{who()} played a Rockfall and removed the {card_label(event['name'])} "
                             f"at ({event['x']}, {event['y']})."),
        "map_used": lambda: f"{who()} looked at the {goal_place(event)} goal with a Map.",
        "map_peek": lambda: (f"You saw the {goal_place(event)} goal: "
                             + ("it holds the gold." if event["gold"] else "only stone.")),
        "passed": lambda: f"{who()} passed, discarding {_a_card(event['count'])} face down.",
        "discarded": lambda: f"You discarded {card_list(event.get('names', []))}.",
        "drew": lambda: f"{who()} drew {_a_card(event['count'])}.",
        "drew_cards": lambda: f"You drew {card_list(event.get('names', []))}.",
        "draw_pile_empty": lambda: "The draw pile is empty.",
        "out_of_cards": lambda: f"{does('seat', 'has', 'have')} no cards left this round.",
        "no_playable_cards": lambda: "The draw pile is empty and nobody holds a card they could play.",
        "round_ended": lambda: _round_ended(event, r),
        "gold_drawn": lambda: (f"{plural(event['count'], 'gold card')} {'is' if event['count'] == 1 else 'are'} "
                               f"drawn; {does('first', 'chooses', 'choose')} first."),
        "gold_offered": lambda: f"Choose a gold card: {', '.join(str(v) for v in event['values'])}.",
        "gold_picked": lambda: f"{who()} kept a gold card.",
        "gold_kept": lambda: f"You received gold worth {' + '.join(str(v) for v in event['values']) or '0'}.",
        "saboteur_paid": lambda: (f"{does('seat', 'takes', 'take')} {plural(event['nuggets'], 'nugget')}"
                                  f" in {plural(event['card_count'], 'card')}"
                                  + ("." if event["nuggets"] == event["due"]
                                     else f" (the gold left could not make the {event['due']} due).")),
        "game_over": lambda: _game_over(event, r),
        "cards_set_aside": lambda: (f"The top {count('card')} {'is' if event['count'] == 1 else 'are'} set aside "
                                    "unseen for this round."),
        "theft_played": lambda: f"{who()} put a Theft in front of {r.own()}.",
        "theft_removed": lambda: f"{who()} played Hands Off and removed {r.whose('target')} Theft.",
        "trapped": lambda: f"{who()} played Trapped! on {r.them()}.",
        "freed": lambda: f"{who()} played Free at last! and set {r.them()} free.",
        "hands_swapped": lambda: (f"{who()} played Swap Your Hand with {who('target')}, who "
                                  + ("draw" if r.is_you("target") else "draws") + " a card."),
        "hand_received": lambda: f"Your hand is now: {card_list(event.get('names', []))}.",
        "inspected": lambda: f"{who()} played Inspection on {who('target')} and looked at their dwarf card."
                             if not r.is_you("target") else f"{who()} played Inspection and looked at your dwarf card.",
        "role_seen": lambda: f"{does('target', 'is', 'are')} {_article(role_name(event['role']))}.",
        "hats_swapped": lambda: f"{who()} played Swap Your Hats on {r.them()}.",
        "role_changed": lambda: f"Your new role this round: {role_name(event['role'])}.",
        "cleared": lambda: (f"{who()} discarded {count('card')} to remove the "
                            f"{card_label(event['name'])} lying in front of {'you' if r.is_you() else 'them'}."),
        "gold_paid": lambda: _gold_paid(event, r),
        "gold_stolen": lambda: f"{who()} stole a gold piece from {who('target')}.",
        "theft_unused": lambda: f"{who()} {THEFT_OUTCOMES.get(event['reason'], 'did not steal')}.",
    }
    render = describe.get(event.get("type", ""))
    if render is None:
        return str(event.get("type", "event")).replace("_", " ").capitalize() + "."
    return sentence(render())


def sentence(line: str) -> str:
    """A line starts with a capital, and a card name that ends in "!" takes no full stop after it."""
    line = line[:1].upper() + line[1:]
    return line[:-1] if line.endswith("!.") else line


def _a_card(count: int) -> str:
    """ "a card", "2 cards"."""
    return "a card" if count == 1 else plural(count, "card")


def _article(noun: str) -> str:
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


# A move's private follow-ups, told inside the line of the event that caused them (see `describe_move`).
def _joined(head: str, tail: str) -> str:
    return head[:-1] + tail if head.endswith(".") else head + tail


def describe_events(events: Sequence[dict[str, Any]], names: Sequence[str], you: int | None = None) -> list[str]:
    """The lines of one move's events for one reader: one line per thing that happened, the cards drawn, the map's
    answer and the gold received told inside the line of the move that caused them ("You built a Crossing at
    (3, 0) and drew Map."). `events` are those the reader may see, in order."""
    lines: list[str] = []
    last: dict[str, Any] | None = None  # the event the previous line tells
    for event in events:
        kind = event.get("type", "")
        merged = _merge(last, event, lines[-1] if lines else "", names, you)
        if merged is not None:
            lines[-1] = sentence(merged)  # "... and drew Free at last!", without a full stop after the "!"
            if kind != "drew":
                last = {**(last or {}), "merged": kind}  # the line goes on: a draw after it takes a comma
            else:
                last = {**(last or {}), "drew": event["count"]}
            continue
        lines.append(describe_event(event, names, you))
        last = event
    return lines


ACTIONS_THAT_DRAW = frozenset({"path_placed", "tool_broken", "tool_repaired", "rockfall", "map_used", "passed",
                               "theft_played", "theft_removed", "trapped", "freed", "hands_swapped", "inspected",
                               "hats_swapped", "cleared"})
# Actions told as two steps joined by "and" ("played a Rockfall and removed the Curve"), by the second step's verb: a
# draw after one makes the steps a list ("played a Rockfall, removed the Curve and drew a card"), never two "and"s.
SECOND_STEPS = {"rockfall": "removed", "theft_removed": "removed", "freed": "set", "inspected": "looked at"}


def _merge(last: dict[str, Any] | None, event: dict[str, Any], line: str, names: Sequence[str],
           you: int | None) -> str | None:
    """The previous line with `event` told inside it, or None when `event` takes a line of its own."""
    if last is None:
        return None
    kind, before = event.get("type"), last.get("type")
    mine = you is not None and event.get("seat") == you
    if kind == "goal_revealed" and before == "path_placed" and "drew" not in last:
        found = "it holds the gold" if event["gold"] else "only stone"
        if last.get("merged") == "goal_revealed":  # a second goal turned over by the same card
            return _joined(line, f" and the {goal_place(event)} goal ({found}).")
        return _joined(line, f", turning over the {goal_place(event)} goal ({found}).")
    if kind == "drew" and before in ACTIONS_THAT_DRAW and "drew" not in last and last.get("seat") == event.get("seat"):
        drew = f" and drew {_a_card(event['count'])}."
        step = SECOND_STEPS.get(before or "")
        if step is not None and f" and {step} " in line:
            return _joined(line.replace(f" and {step} ", f", {step} ", 1), drew)
        return _joined(line, ("," if before == "passed" or "merged" in last else "") + drew)
    if kind == "drew_cards" and mine and last.get("drew") is not None:
        return line.replace(f" and drew {_a_card(last['drew'])}", f" and drew {card_list(event.get('names', []))}", 1)
    if kind == "discarded" and mine and before in ("passed", "cleared"):
        if before == "passed":
            return line.replace(f"discarding {_a_card(last['count'])} face down",
                                f"discarding {card_list(event.get('names', []))} face down", 1)
        return _joined(line, f" ({card_list(event.get('names', []))}).")
    if kind == "map_peek" and mine and before == "map_used":
        return _joined(line, " (" + ("it holds the gold)." if event["gold"] else "only stone)."))
    if kind == "gold_kept" and mine and before in ("gold_picked", "saboteur_paid"):
        worth = " + ".join(str(v) for v in event["values"]) or "0"
        return _joined(line, f", worth {worth}.") if before == "gold_picked" else _joined(line, f" ({worth}).")
    if kind == "role_seen" and you is not None and last.get("seat") == you and before == "inspected":
        return _joined(line, f" ({_article(role_name(event['role']))}).")
    if kind == "hand_received" and mine and before == "hands_swapped":
        return _joined(line, f"; your hand is now {card_list(event.get('names', []))}.")
    if kind == "role_changed" and mine and before == "hats_swapped" and "drew" not in last:
        return _joined(line, f"; your new role: {role_name(event['role'])}.")
    return None


def _gold_paid(event: dict[str, Any], r: _Reader) -> str:
    pieces = plural(event["amount"], "gold piece")
    reason = event["reason"]
    gets = r.does("seat", "gets", "get")
    if reason == "trapped":
        return f"{gets} nothing, being trapped."
    if reason == "crystals":
        return f"{gets} {pieces} for the {plural(event['base'], 'crystal')} in the tunnels."
    return f"{gets} {pieces} {PAYOUT_REASONS.get(reason, '')}".rstrip() + "."


def _round_started(event: dict[str, Any], r: _Reader) -> str:
    line = f"Round {event['round']} begins; {r.does('first', 'plays', 'play')} first"
    after = event.get("after")
    if after is None:
        return line + "."
    why = "built the last path card" if event.get("because") == "last_path" else "played the last card"
    if r.is_you("after"):
        return f"{line}, sitting on your left: you {why} of the round before."
    return f"{line}, sitting left of {r.who('after')}, who {why} of the round before."


# Why the gold was not reached (a round's `reason`): the opening of its outcome.
NOT_REACHED = {
    "no_playable_cards": "the draw pile ran out and nobody could play a card before anyone reached the gold",
    "hands_empty": "every hand was played out before anyone reached the gold",
}
CARDS_RAN_OUT = "the cards ran out before anyone reached the gold"  # a round recorded before reasons were kept


def not_reached(result: Mapping[str, Any]) -> str:
    """Why a round ended without the gold, in a few words that open a sentence's clause."""
    return NOT_REACHED.get(result.get("reason", ""), CARDS_RAN_OUT)


def round_outcome(result: Mapping[str, Any], who: Callable[[Any], str]) -> str:
    """How a finished round was decided, in one sentence: "Ann reached the gold, so the gold-diggers win."

    The one wording of a round's result, for its line in the log, the turn page, the emails and the spectators alike.
    `result` is the round's entry in `results` or its `round_ended` event (both public); `who` names a seat."""
    return sentence(_outcome(result, who))


def _outcome(result: Mapping[str, Any], who: Callable[[Any], str]) -> str:
    if "teams" in result:
        return _treasure_outcome(result, who)
    winner = result["winner"]
    if winner == "diggers":
        return f"{who(result['reached_by'])} reached the gold, so {WINNING_SIDES['diggers']} win."
    if winner == "saboteurs":
        return f"{not_reached(result)}, so {WINNING_SIDES['saboteurs']} win."
    if winner == "nobody":
        return f"{not_reached(result)}, and with no saboteur in play nobody wins."
    return f"the round went to: {str(winner).replace('_', ' ')}."


def _treasure_outcome(result: Mapping[str, Any], who: Callable[[Any], str]) -> str:
    """A Saboteur 2 round: who reached the gold (with their dwarf card), which team won, which door barred whom."""
    reached_by = result["reached_by"]
    reacher = f"{who(reached_by)} ({role_name(result['roles'][reached_by])})" if isinstance(reached_by, int) else None
    teams = list(result["teams"])
    barred = [team for team in ("blue", "green") if not result["claims"].get(team)]
    if teams:
        won = and_list(teams) + (" team wins" if len(teams) == 1 else " teams win")
        reason = ""
        if len(barred) == 1:
            other = "green" if barred[0] == "blue" else "blue"
            reason = f" (a {other.capitalize()} door bars the {barred[0]} team's way to the gold)"  # the card's name
        elif not barred and len(teams) == 1:
            reason = " (a gold-digger of that team laid the last card)"
        return f"{reacher or 'someone'} reached the gold, so the {won}{reason}."
    if reacher is not None:
        return f"{reacher} reached the gold, but doors of both colours bar the way, so the saboteurs' side wins."
    if result["winner"] == "saboteurs":
        return f"{not_reached(result)}, so the saboteurs' side wins."
    return f"{not_reached(result)}, and with nobody on the saboteurs' side in play nobody wins."


UNIQUE_ROLES = frozenset({"boss", "profiteer"})  # one card of each in the deck: "the Boss", not "a Boss"


def _roles(event: Mapping[str, Any], r: _Reader) -> str:
    """Who was what: "Ann was a blue gold-digger, you were the Boss and Ben was a saboteur"."""
    parts = []
    for seat, role in enumerate(event["roles"]):
        name = role_name(role)
        card = f"the {name}" if role in UNIQUE_ROLES else _article(name)
        parts.append(f"you were {card}" if seat == r.you else f"{r.names[seat]} was {card}")
    return and_list(parts)


def _round_ended(event: dict[str, Any], r: _Reader) -> str:
    """ "Round 1 is over: Ann reached the gold, so the gold-diggers win. Ann was a gold-digger, ..."."""
    outcome = _outcome(event, lambda _seat: r.who("reached_by"))  # it names only the seat that reached the gold
    return f"Round {event['round']} is over: {outcome} {sentence(_roles(event, r))}."


def _game_over(event: dict[str, Any], r: _Reader) -> str:
    def name(seat: int) -> str:
        return "you" if seat == r.you else r.names[seat]

    scores = ", ".join(f"{name(s)} {t}" for s, t in enumerate(event["scores"]))
    winners = and_list([name(s) for s in event["winners"]])
    return f"The game is over. Gold: {scores}. {'Winner' if len(event['winners']) == 1 else 'Winners'}: {winners}."
