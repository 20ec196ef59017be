"""One line per event, for one reader: that seat is "you", the others go by name, in the reader's language.

A line uses only the event and the seat names, so a line never says more than its event. Each line is one
message per way of telling it (you or a name, on yourself or on another), so a translation says it whole.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pbem.i18n import gettext, ngettext, pgettext
from pbem.words.cards import card_label, card_list, tool_name
from pbem.words.counting import and_list
from pbem.words.outcomes import outcome_clause, sentence
from pbem.words.places import goal_place
from pbem.words.roles import a_role, role_card, role_name
from pbem.words.table import N_, NN_

Event = Mapping[str, Any]


class Reader:
    """Who is who in a line read by one seat: that seat is "you", the others go by name."""

    def __init__(self, event: Event, names: Sequence[str], you: int | None) -> None:
        self.event, self.names, self.you = event, names, you

    def is_you(self, key: str = "seat") -> bool:
        return self.you is not None and self.event.get(key) == self.you

    def name(self, key: str = "seat") -> str:
        """The seat under `key` by name ("someone" for a seat the table does not have)."""
        seat = self.event.get(key)
        return self.names[seat] if isinstance(seat, int) and 0 <= seat < len(self.names) else gettext("someone")

    def on_self(self) -> bool:
        return self.event.get("seat") == self.event.get("target")


def _worth(values: Sequence[int]) -> str:
    return " + ".join(str(v) for v in values) or "0"


def on_player(r: Reader, you_self: str, name_self: str, you_other: str, other_you: str, other_other: str,
               **fields: Any) -> str:
    """A card played by the seat on the target: each of the five ways it can read."""
    if r.on_self():
        return gettext(you_self if r.is_you() else name_self, name=r.name(), **fields)
    if r.is_you():
        return gettext(you_other, target=r.name("target"), **fields)
    if r.is_you("target"):
        return gettext(other_you, name=r.name(), **fields)
    return gettext(other_other, name=r.name(), target=r.name("target"), **fields)


def _round_started(e: Event, r: Reader) -> str:
    first_you, after = r.is_you("first"), e.get("after")
    first = r.name("first")
    if after is None:
        if first_you:
            return gettext("Round %(round)s begins; you play first.", round=e["round"])
        return gettext("Round %(round)s begins; %(first)s plays first.", round=e["round"], first=first)
    last_path = e.get("because") == "last_path"
    if r.is_you("after"):
        if last_path:
            return gettext("Round %(round)s begins; %(first)s plays first, sitting on your left: you built the last "
                           "path card of the round before.", round=e["round"], first=first)
        return gettext("Round %(round)s begins; %(first)s plays first, sitting on your left: you played the last "
                       "card of the round before.", round=e["round"], first=first)
    fields = {"round": e["round"], "first": first, "after": r.name("after")}
    if first_you:
        if last_path:
            return gettext("Round %(round)s begins; you play first, sitting left of %(after)s, who built the last "
                           "path card of the round before.", **fields)
        return gettext("Round %(round)s begins; you play first, sitting left of %(after)s, who played the last card "
                       "of the round before.", **fields)
    if last_path:
        return gettext("Round %(round)s begins; %(first)s plays first, sitting left of %(after)s, who built the last "
                       "path card of the round before.", **fields)
    return gettext("Round %(round)s begins; %(first)s plays first, sitting left of %(after)s, who played the last "
                   "card of the round before.", **fields)


def _path_placed(e: Event, r: Reader) -> str:
    fields = {"name": r.name(), "card": card_label(e["name"]), "x": e["x"], "y": e["y"]}
    if e.get("rotated"):
        return (gettext("You built a %(card)s at (%(x)s, %(y)s), turned around.", **fields) if r.is_you()
                else gettext("%(name)s built a %(card)s at (%(x)s, %(y)s), turned around.", **fields))
    return (gettext("You built a %(card)s at (%(x)s, %(y)s).", **fields) if r.is_you()
            else gettext("%(name)s built a %(card)s at (%(x)s, %(y)s).", **fields))


def _tool_broken(e: Event, r: Reader) -> str:
    tool = tool_name(e["tool"])
    if r.is_you():
        return (gettext("You broke your %(tool)s.", tool=tool) if r.is_you("target")
                else gettext("You broke %(target)s's %(tool)s.", target=r.name("target"), tool=tool))
    if r.is_you("target"):
        return gettext("%(name)s broke your %(tool)s.", name=r.name(), tool=tool)
    return gettext("%(name)s broke %(target)s's %(tool)s.", name=r.name(), target=r.name("target"), tool=tool)


def _tool_repaired(e: Event, r: Reader) -> str:
    return on_player(r, N_("You repaired your own %(tool)s."), N_("%(name)s repaired their own %(tool)s."),
                      N_("You repaired %(target)s's %(tool)s."), N_("%(name)s repaired your %(tool)s."),
                      N_("%(name)s repaired %(target)s's %(tool)s."), tool=tool_name(e["tool"]))


def _gold_paid(e: Event, r: Reader) -> str:
    reason, amount, you = e["reason"], e["amount"], r.is_you()
    name = r.name()
    if reason == "trapped":
        return gettext("You get nothing, being trapped.") if you else gettext(
            "%(name)s gets nothing, being trapped.", name=name)
    if reason == "crystals":
        crystals = ngettext("%(num)d crystal", "%(num)d crystals", e["base"])
        if you:
            return ngettext("You get %(num)d gold piece for the %(crystals)s in the tunnels.",
                            "You get %(num)d gold pieces for the %(crystals)s in the tunnels.", amount,
                            crystals=crystals)
        return ngettext("%(name)s gets %(num)d gold piece for the %(crystals)s in the tunnels.",
                        "%(name)s gets %(num)d gold pieces for the %(crystals)s in the tunnels.", amount,
                        name=name, crystals=crystals)
    told = PAYOUTS.get(reason, PAYOUTS[""])
    singular, plural = told[0] if you else told[1]
    return ngettext(singular, plural, amount, name=name)


# A payout's line by its reason: (for you), (for a name), each singular and plural.
PAYOUTS: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {
    "blue": (NN_("You get %(num)d gold piece for the blue team.", "You get %(num)d gold pieces for the blue team."),
             NN_("%(name)s gets %(num)d gold piece for the blue team.",
              "%(name)s gets %(num)d gold pieces for the blue team.")),
    "green": (NN_("You get %(num)d gold piece for the green team.", "You get %(num)d gold pieces for the green team."),
              NN_("%(name)s gets %(num)d gold piece for the green team.",
               "%(name)s gets %(num)d gold pieces for the green team.")),
    "boss": (NN_("You get %(num)d gold piece as the Boss, one less than the share.",
              "You get %(num)d gold pieces as the Boss, one less than the share."),
             NN_("%(name)s gets %(num)d gold piece as the Boss, one less than the share.",
              "%(name)s gets %(num)d gold pieces as the Boss, one less than the share.")),
    "profiteer": (NN_("You get %(num)d gold piece as the Profiteer, two less than the share.",
                   "You get %(num)d gold pieces as the Profiteer, two less than the share."),
                  NN_("%(name)s gets %(num)d gold piece as the Profiteer, two less than the share.",
                   "%(name)s gets %(num)d gold pieces as the Profiteer, two less than the share.")),
    "saboteur": (NN_("You get %(num)d gold piece as a saboteur.", "You get %(num)d gold pieces as a saboteur."),
                 NN_("%(name)s gets %(num)d gold piece as a saboteur.",
                     "%(name)s gets %(num)d gold pieces as a saboteur.")),
    "geologist": (NN_("You get %(num)d gold piece as a Geologist, sharing the win of the non-saboteurs.",
                   "You get %(num)d gold pieces as a Geologist, sharing the win of the non-saboteurs."),
                  NN_("%(name)s gets %(num)d gold piece as a Geologist, sharing the win of the non-saboteurs.",
                   "%(name)s gets %(num)d gold pieces as a Geologist, sharing the win of the non-saboteurs.")),
    "": (NN_("You get %(num)d gold piece.", "You get %(num)d gold pieces."),
         NN_("%(name)s gets %(num)d gold piece.", "%(name)s gets %(num)d gold pieces.")),
}


def _saboteur_paid(e: Event, r: Reader) -> str:
    fields = {"name": r.name(), "nuggets": ngettext("%(num)d nugget", "%(num)d nuggets", e["nuggets"]),
              "cards": ngettext("%(num)d card", "%(num)d cards", e["card_count"]), "due": e["due"]}
    if e["nuggets"] == e["due"]:
        return (gettext("You take %(nuggets)s in %(cards)s.", **fields) if r.is_you()
                else gettext("%(name)s takes %(nuggets)s in %(cards)s.", **fields))
    if r.is_you():
        return gettext("You take %(nuggets)s in %(cards)s (the gold left could not make the %(due)s due).", **fields)
    return gettext("%(name)s takes %(nuggets)s in %(cards)s (the gold left could not make the %(due)s due).",
                   **fields)


def _theft_unused(e: Event, r: Reader) -> str:
    reason = e["reason"]
    if r.is_you():
        told = {"declined": N_("You chose not to steal."), "trapped": N_("You could not steal, being trapped."),
                "no_gold_to_steal": N_("You found nobody with gold to steal.")}
        return gettext(told.get(reason, N_("You did not steal.")))
    told = {"declined": N_("%(name)s chose not to steal."), "trapped": N_("%(name)s could not steal, being trapped."),
            "no_gold_to_steal": N_("%(name)s found nobody with gold to steal.")}
    return gettext(told.get(reason, N_("%(name)s did not steal.")), name=r.name())


def _who_was_what(e: Event, r: Reader) -> str:
    """Who was what: "Ann was a blue gold-digger, you were the Boss and Ben was a saboteur"."""
    parts = [gettext("you were %(role)s", role=role_card(role)) if seat == r.you
             else gettext("%(name)s was %(role)s", name=r.names[seat], role=role_card(role))
             for seat, role in enumerate(e["roles"])]
    return and_list(parts)


def _round_ended(e: Event, r: Reader) -> str:
    """ "Round 1 is over: Ann reached the gold, so the gold-diggers win. Ann was a gold-digger, ..."."""
    outcome = outcome_clause(e, lambda _seat: r.name("reached_by"), lambda _seat: r.is_you("reached_by"))
    return gettext("Round %(round)s is over: %(outcome)s %(roles)s.", round=e["round"], outcome=outcome,
                   roles=sentence(_who_was_what(e, r)))


def _game_over(e: Event, r: Reader) -> str:
    def name(seat: int) -> str:
        return gettext("you") if seat == r.you else r.names[seat]

    def score(seat: int, gold: int) -> str:  # the reader's own score is not said as a name's ("나 님" in Korean)
        if seat == r.you:
            return pgettext("your score", "you %(gold)s", gold=gold)
        return gettext("%(name)s %(gold)s", name=r.names[seat], gold=gold)

    scores = ", ".join(score(s, t) for s, t in enumerate(e["scores"]))
    return ngettext("The game is over. Gold: %(scores)s. Winner: %(winners)s.",
                    "The game is over. Gold: %(scores)s. Winners: %(winners)s.", len(e["winners"]),
                    scores=scores, winners=and_list([name(s) for s in e["winners"]]))


def you_or(r: Reader, key: str, you: str, other: str, **fields: Any) -> str:
    """The line for the seat under `key`: `you` when it is the reader's, else `other` with its `name`."""
    return gettext(you, **fields) if r.is_you(key) else gettext(other, name=r.name(key), **fields)


def _you_or_n(r: Reader, key: str, count: int, you: tuple[str, str], other: tuple[str, str], **fields: Any) -> str:
    if r.is_you(key):
        return ngettext(*you, count, **fields)
    return ngettext(*other, count, name=r.name(key), **fields)


TELL: dict[str, Callable[[Event, Reader], str]] = {
    "round_started": _round_started,
    "role_dealt": lambda e, r: gettext("Your role this round: %(role)s.", role=role_name(e["role"])),
    "hand_dealt": lambda e, r: gettext("Your hand: %(cards)s.", cards=card_list(e.get("names", []))),
    "path_placed": _path_placed,
    "goal_revealed": lambda e, r: (
        gettext("The %(place)s goal is turned over: GOLD!", place=goal_place(e)) if e["gold"]
        else gettext("The %(place)s goal is turned over: only stone.", place=goal_place(e))),
    "tool_broken": _tool_broken,
    "tool_repaired": _tool_repaired,
    "rockfall": lambda e, r: you_or(
        r, "seat", N_("You played a Rockfall and removed the %(card)s at (%(x)s, %(y)s)."),
        N_("%(name)s played a Rockfall and removed the %(card)s at (%(x)s, %(y)s)."),
        card=card_label(e["name"]), x=e["x"], y=e["y"]),
    "map_used": lambda e, r: you_or(r, "seat", N_("You looked at the %(place)s goal with a Map."),
                                     N_("%(name)s looked at the %(place)s goal with a Map."), place=goal_place(e)),
    "map_peek": lambda e, r: (
        gettext("You saw the %(place)s goal: it holds the gold.", place=goal_place(e)) if e["gold"]
        else gettext("You saw the %(place)s goal: only stone.", place=goal_place(e))),
    "passed": lambda e, r: _you_or_n(
        r, "seat", e["count"],
        NN_("You passed, discarding a card face down.", "You passed, discarding %(num)d cards face down."),
        NN_("%(name)s passed, discarding a card face down.", "%(name)s passed, discarding %(num)d cards face down.")),
    "discarded": lambda e, r: gettext("You discarded %(cards)s.", cards=card_list(e.get("names", []))),
    "drew": lambda e, r: _you_or_n(r, "seat", e["count"], NN_("You drew a card.", "You drew %(num)d cards."),
                                   NN_("%(name)s drew a card.", "%(name)s drew %(num)d cards.")),
    "drew_cards": lambda e, r: gettext("You drew %(cards)s.", cards=card_list(e.get("names", []))),
    "draw_pile_empty": lambda e, r: gettext("The draw pile is empty."),
    "out_of_cards": lambda e, r: you_or(r, "seat", N_("You have no cards left this round."),
                                         N_("%(name)s has no cards left this round.")),
    "no_playable_cards": lambda e, r: gettext("The draw pile is empty and nobody holds a card they could play."),
    "round_ended": _round_ended,
    "gold_drawn": lambda e, r: _you_or_n(
        r, "first", e["count"],
        NN_("%(num)d gold card is drawn; you choose first.", "%(num)d gold cards are drawn; you choose first."),
        NN_("%(num)d gold card is drawn; %(name)s chooses first.",
            "%(num)d gold cards are drawn; %(name)s chooses first.")),
    "gold_offered": lambda e, r: gettext("Choose a gold card: %(values)s.",
                                         values=", ".join(str(v) for v in e["values"])),
    "gold_picked": lambda e, r: you_or(r, "seat", N_("You kept a gold card."), N_("%(name)s kept a gold card.")),
    "gold_kept": lambda e, r: gettext("You received gold worth %(worth)s.", worth=_worth(e["values"])),
    "saboteur_paid": _saboteur_paid,
    "game_over": _game_over,
    "cards_set_aside": lambda e, r: ngettext("The top %(num)d card is set aside unseen for this round.",
                                             "The top %(num)d cards are set aside unseen for this round.", e["count"]),
    "theft_played": lambda e, r: you_or(r, "seat", N_("You put a Theft in front of yourself."),
                                         N_("%(name)s put a Theft in front of themselves.")),
    "theft_removed": lambda e, r: on_player(
        r, N_("You played Hands Off and removed your Theft."),
        N_("%(name)s played Hands Off and removed %(name)s's Theft."),
        N_("You played Hands Off and removed %(target)s's Theft."),
        N_("%(name)s played Hands Off and removed your Theft."),
        N_("%(name)s played Hands Off and removed %(target)s's Theft.")),
    "trapped": lambda e, r: on_player(
        r, N_("You played Trapped! on yourself."), N_("%(name)s played Trapped! on themselves."),
        N_("You played Trapped! on %(target)s."), N_("%(name)s played Trapped! on you."),
        N_("%(name)s played Trapped! on %(target)s.")),
    "freed": lambda e, r: on_player(
        r, N_("You played Free at last! and set yourself free."),
        N_("%(name)s played Free at last! and set themselves free."),
        N_("You played Free at last! and set %(target)s free."), N_("%(name)s played Free at last! and set you free."),
        N_("%(name)s played Free at last! and set %(target)s free.")),
    "hands_swapped": lambda e, r: on_player(
        r, N_("You played Swap Your Hand with you, who draw a card."),
        N_("%(name)s played Swap Your Hand with %(name)s, who draws a card."),
        N_("You played Swap Your Hand with %(target)s, who draws a card."),
        N_("%(name)s played Swap Your Hand with you, who draw a card."),
        N_("%(name)s played Swap Your Hand with %(target)s, who draws a card.")),
    "hand_received": lambda e, r: gettext("Your hand is now: %(cards)s.", cards=card_list(e.get("names", []))),
    "inspected": lambda e, r: on_player(
        r, N_("You played Inspection and looked at your dwarf card."),
        N_("%(name)s played Inspection on %(name)s and looked at their dwarf card."),
        N_("You played Inspection on %(target)s and looked at their dwarf card."),
        N_("%(name)s played Inspection and looked at your dwarf card."),
        N_("%(name)s played Inspection on %(target)s and looked at their dwarf card.")),
    "role_seen": lambda e, r: you_or(r, "target", N_("You are %(role)s."), N_("%(name)s is %(role)s."),
                                      role=a_role(e["role"])),
    "hats_swapped": lambda e, r: on_player(
        r, N_("You played Swap Your Hats on yourself."), N_("%(name)s played Swap Your Hats on themselves."),
        N_("You played Swap Your Hats on %(target)s."), N_("%(name)s played Swap Your Hats on you."),
        N_("%(name)s played Swap Your Hats on %(target)s.")),
    "role_changed": lambda e, r: gettext("Your new role this round: %(role)s.", role=role_name(e["role"])),
    "cleared": lambda e, r: _you_or_n(
        r, "seat", e["count"],
        NN_("You discarded %(num)d card to remove the %(card)s lying in front of you.",
         "You discarded %(num)d cards to remove the %(card)s lying in front of you."),
        NN_("%(name)s discarded %(num)d card to remove the %(card)s lying in front of them.",
         "%(name)s discarded %(num)d cards to remove the %(card)s lying in front of them."),
        card=card_label(e["name"])),
    "gold_paid": _gold_paid,
    "gold_stolen": lambda e, r: on_player(
        r, N_("You stole a gold piece from you."), N_("%(name)s stole a gold piece from %(name)s."),
        N_("You stole a gold piece from %(target)s."), N_("%(name)s stole a gold piece from you."),
        N_("%(name)s stole a gold piece from %(target)s.")),
    "theft_unused": _theft_unused,
}


def describe_event(event: Event, names: Sequence[str], you: int | None = None) -> str:
    """One line for one event. `you`: the seat reading it, called "you" (None: everyone by name)."""
    tell = TELL.get(event.get("type", ""))
    if tell is None:
        return str(event.get("type", "event")).replace("_", " ").capitalize() + "."
    return sentence(tell(event, Reader(event, names, you)))


def describe_openly(event: Event, names: Sequence[str], secret_roles: frozenset[int] = frozenset()) -> str:
    """One line for anyone, once nothing is secret: private events in the third person ("Ann discarded a Map",
    not "You discarded a Map"), the rest as `describe_event` says them.

    A dwarf card named for a seat in `secret_roles` is left out (engine.roles_given_up)."""
    r = Reader(event, names, None)
    kind = event.get("type", "")
    if kind in ROLE_EVENTS and event.get(ROLE_EVENTS[kind]) in secret_roles:
        return gettext(GIVEN_UP[kind], name=r.name(), target=r.name("target"))
    tell = OPENLY.get(kind)
    return sentence(tell(event, r)) if tell is not None else describe_event(event, names)


# Events that name a seat's dwarf card, and which seat's (as engine.reveal has them).
ROLE_EVENTS = {"role_dealt": "seat", "role_seen": "target", "role_changed": "seat"}
GIVEN_UP = {
    "role_dealt": N_("%(name)s is dealt a dwarf card, later given up face down."),
    "role_seen": N_("%(name)s inspected %(target)s's dwarf card, later given up face down."),
    "role_changed": N_("%(name)s took a leftover dwarf card, later given up face down too."),
}


def _cards(event: Event) -> str:
    return card_list(event.get("names", []))


OPENLY: dict[str, Callable[[Event, Reader], str]] = {
    "role_dealt": lambda e, r: gettext("%(name)s is dealt the role %(role)s.", name=r.name(),
                                       role=role_name(e["role"])),
    "hand_dealt": lambda e, r: gettext("%(name)s is dealt %(cards)s.", name=r.name(), cards=_cards(e)),
    "map_peek": lambda e, r: (
        gettext("%(name)s looked at the %(place)s goal with a Map: the gold.", name=r.name(), place=goal_place(e))
        if e["gold"] else gettext("%(name)s looked at the %(place)s goal with a Map: only stone.", name=r.name(),
                                  place=goal_place(e))),
    "discarded": lambda e, r: gettext("%(name)s discarded %(cards)s face down.", name=r.name(), cards=_cards(e)),
    "drew_cards": lambda e, r: gettext("%(name)s drew %(cards)s.", name=r.name(), cards=_cards(e)),
    "gold_offered": lambda e, r: gettext("%(name)s is offered gold cards worth %(values)s.", name=r.name(),
                                         values=", ".join(str(v) for v in e["values"])),
    "gold_kept": lambda e, r: gettext("%(name)s received gold worth %(worth)s.", name=r.name(),
                                      worth=_worth(e["values"])),
    "hand_received": lambda e, r: gettext("%(name)s now holds %(cards)s.", name=r.name(), cards=_cards(e)),
    "role_seen": lambda e, r: gettext("%(name)s inspected %(target)s's dwarf card: %(role)s.", name=r.name(),
                                      target=r.name("target"), role=role_name(e["role"])),
    "role_changed": lambda e, r: gettext("%(name)s took a leftover dwarf card: %(role)s.", name=r.name(),
                                         role=role_name(e["role"])),
}
