"""Why the rules refuse a move or a game's setup, in the reader's words: one message per refusal code.

The engine raises `IllegalMove` / `InvalidSetup` with a code and its params (engine/errors.py); `refusal` tells it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.errors import EngineError
from pbem.i18n import gettext, ngettext
from pbem.words.cards import printed, tool_name
from pbem.words.counting import or_list
from pbem.words.places import side_name

Params = Mapping[str, Any]


def _deck_where(p: Params) -> str:
    """Which entry of a host's deck: "paths entry 3", "paths entry 3 (curve)", "paths entry 3 (curve), segment 2"."""
    if "name" not in p:
        return gettext("%(section)s entry %(entry)s", section=p["section"], entry=p["entry"])
    if "segment" not in p:
        return gettext("%(section)s entry %(entry)s (%(name)s)", section=p["section"], entry=p["entry"], name=p["name"])
    return gettext("%(section)s entry %(entry)s (%(name)s), segment %(segment)s", section=p["section"],
                   entry=p["entry"], name=p["name"], segment=p["segment"])


def _quoted(values: Any) -> list[str]:
    return [repr(value) for value in values]


MOVES: dict[str, Callable[[Params], str]] = {
    "no_such_seat": lambda p: gettext("There is no seat %(seat)s in this game", seat=repr(p["seat"])),
    "game_over": lambda p: gettext("The game is over"),
    "not_your_turn": lambda p: gettext("It is not your turn: %(player)s is to play", player=p["player"]),
    "not_a_move": lambda p: gettext("A move must be an object with a 'type'"),
    "pick_gold_first": lambda p: gettext("Pick one of the gold cards on offer first"),
    "no_gold_card_worth": lambda p: gettext("There is no gold card worth %(value)s on offer", value=p["value"]),
    "decide_theft_first": lambda p: gettext("Decide on your Theft first: steal a gold piece or let it go"),
    "no_gold_to_pick": lambda p: gettext("There is no gold to pick now"),
    "nothing_to_steal": lambda p: gettext("There is nothing to steal now"),
    "unknown_move_type": lambda p: gettext("Unknown move type %(kind)s: a turn is %(turns)s", kind=repr(p["kind"]),
                                           turns=or_list(_quoted(p["turns"]))),
    "card_not_held": lambda p: gettext("You do not hold that card"),
    "tool_already_broken": lambda p: gettext("%(player)s already has a broken %(tool)s", player=p["player"],
                                             tool=tool_name(p["tool"])),
    "tool_not_repaired": lambda p: gettext("This card repairs %(tools)s, not %(tool)s",
                                           tools=or_list([tool_name(t) for t in p["tools"]]),
                                           tool=repr(p["tool"])),
    "no_broken_tool": lambda p: gettext("%(player)s has no broken %(tool)s to repair", player=p["player"],
                                        tool=tool_name(p["tool"])),
    "nothing_to_remove": lambda p: gettext("There is no card at that place to remove"),
    "fixed_card": lambda p: gettext("The start and the goal cards cannot be removed"),
    "map_needs_hidden_goal": lambda p: gettext("A map can only look at a goal card that is still face down"),
    "card_not_playable": lambda p: gettext("%(card)s cannot be played in this game",
                                                     card=printed(p["label"])),
    "not_true_or_false": lambda p: gettext("'%(field)s' must be true or false", field=p["field"]),
    "broken_tool_ban": lambda p: gettext("You cannot build while a broken tool lies in front of you"),
    "trapped_ban": lambda p: gettext("You cannot build while you are trapped"),
    "symmetric_card": lambda p: gettext("That card looks the same either way round, so it is never turned"),
    "place_taken": lambda p: gettext("There is already a card at that place"),
    "ladder_next_to_goal": lambda p: gettext("A ladder may not be placed next to a goal card"),
    "not_next_to_card": lambda p: gettext("A path card must be placed next to a card already on the table"),
    "tunnel_meets_wall": lambda p: gettext(
        "That card does not fit: its %(side)s side is a tunnel but the card to its %(side)s has a wall there",
        side=side_name(p["side"])),
    "wall_meets_tunnel": lambda p: gettext(
        "That card does not fit: its %(side)s side is a wall but the card to its %(side)s has a tunnel there",
        side=side_name(p["side"])),
    "not_joined_to_start": lambda p: gettext("That card must join a tunnel that leads back to the start"),
    "too_many_discards": lambda p: ngettext("You may discard at most %(num)d card when you pass",
                                            "You may discard at most %(num)d cards when you pass", p["most"]),
    "clear_cost": lambda p: ngettext("Discard exactly %(num)d card to remove a card lying in front of you",
                                     "Discard exactly %(num)d cards to remove a card lying in front of you",
                                     p["count"]),
    "not_in_front": lambda p: gettext("That card is not lying in front of you"),
    "no_cards_listed": lambda p: gettext("'cards' must list the cards you discard"),
    "card_ids": lambda p: gettext("Cards are named by their whole-number ids"),
    "discard_order": lambda p: gettext("List each discarded card once, in increasing order"),
    "not_whole_number": lambda p: gettext("'%(field)s' must be a whole number", field=p["field"]),
    "no_seat_to_target": lambda p: gettext("There is no seat %(seat)s to play on", seat=p["seat"]),
    "missing_field": lambda p: gettext("This move needs '%(field)s'", field=p["field"]),
    "unexpected_field": lambda p: gettext("Unexpected field '%(field)s' in this move", field=p["field"]),
    # Saboteur 2's cards played on players, and the thefts
    "theft_in_front": lambda p: gettext("You already have a Theft in front of you"),
    "no_theft_in_front": lambda p: gettext("%(player)s has no Theft in front of them", player=p["player"]),
    "swap_hand_with_another": lambda p: gettext("Choose another player to swap hands with"),
    "inspect_another": lambda p: gettext("Choose another player whose dwarf card you want to see"),
    "no_dwarf_cards_left": lambda p: gettext("No dwarf cards are left to swap for this round"),
    "trap_another": lambda p: gettext("Trapped! is played on another player"),
    "already_trapped": lambda p: gettext("%(player)s is already trapped", player=p["player"]),
    "not_trapped": lambda p: gettext("%(player)s is not trapped", player=p["player"]),
    "steal_from_yourself": lambda p: gettext("You cannot steal from yourself"),
    "no_gold_to_steal": lambda p: gettext("%(player)s has no gold to steal", player=p["player"]),
}

SETUPS: dict[str, Callable[[Params], str]] = {
    "unknown_variant": lambda p: gettext("Unknown variant %(variant)s; choose one of %(variants)s",
                                         variant=repr(p["variant"]), variants=", ".join(p["variants"])),
    "players_not_names": lambda p: gettext("Players must be a list of names"),
    "player_count": lambda p: gettext("This game needs %(least)s to %(most)s players, not %(count)s", least=p["least"],
                                      most=p["most"], count=p["count"]),
    "seed_not_whole_number": lambda p: gettext("The seed must be a whole number"),
    "options_not_table": lambda p: gettext("Options must be a table of names and values"),
    "option_of_other_variant": lambda p: gettext("Option %(option)s belongs to the %(variants)s game, not the "
                                                 "%(variant)s game", option=repr(p["option"]),
                                                 variants=", ".join(p["variants"]), variant=p["variant"]),
    "unknown_option": lambda p: gettext("Unknown option %(option)s for the %(variant)s game", option=repr(p["option"]),
                                        variant=p["variant"]),
    "option_value": lambda p: gettext("Option %(option)s must be one of %(allowed)s", option=repr(p["option"]),
                                      allowed=", ".join(_quoted(p["allowed"]))),
    "deck_too_small": lambda p: gettext(
        "The deck has %(cards)s cards but %(players)s players need at least %(needed)s (%(set_aside)s set aside and "
        "%(hand)s in each hand)", cards=p["cards"], players=p["players"], needed=p["needed"],
        set_aside=p["set_aside"], hand=p["hand"]),
    "snapshot_schema": lambda p: gettext("unsupported snapshot schema: %(schema)s", schema=p["schema"]),
    # a host's own deck (option `deck`)
    "deck_lists": lambda p: gettext("A deck must have exactly two lists: 'paths' and 'actions'"),
    "deck_section_empty": lambda p: gettext("The deck's '%(section)s' must be a non-empty list of cards",
                                            section=p["section"]),
    "deck_not_table": lambda p: (
        gettext("Deck %(where)s must be a table of fields", where=_deck_where(p)) if "segment" not in p
        else gettext('Deck %(where)s must be a table such as {edges = "NS"}', where=_deck_where(p))),
    "deck_unknown_field": lambda p: gettext("Deck %(where)s has an unknown field '%(field)s'", where=_deck_where(p),
                                            field=p["field"]),
    "deck_name": lambda p: gettext("Deck %(where)s needs a 'name' of lower-case letters, digits and _",
                                   where=_deck_where(p)),
    "deck_name_taken": lambda p: gettext("Deck %(where)s: the name is already taken", where=_deck_where(p)),
    "deck_label": lambda p: gettext("Deck %(where)s needs a 'label' of 1 to %(most)s characters",
                                    where=_deck_where(p), most=p["most"]),
    "deck_count": lambda p: gettext("Deck %(where)s: 'count' must be a whole number from 1 to %(most)s",
                                    where=_deck_where(p), most=p["most"]),
    "deck_segments": lambda p: gettext("Deck %(where)s: 'segments' must list 1 to 4 tunnels", where=_deck_where(p)),
    "deck_shared_edge": lambda p: gettext("Deck %(where)s: two segments share an edge; an edge belongs to one tunnel",
                                          where=_deck_where(p)),
    "deck_crystals": lambda p: gettext("Deck %(where)s: 'crystals' must be a whole number from 0 to %(most)s",
                                       where=_deck_where(p), most=p["most"]),
    "deck_edges": lambda p: gettext("Deck %(where)s: 'edges' must be distinct letters from N, E, S, W",
                                    where=_deck_where(p)),
    "deck_dead_ladder": lambda p: gettext("Deck %(where)s: 'dead' and 'ladder' must be true or false",
                                          where=_deck_where(p)),
    "deck_door": lambda p: gettext('Deck %(where)s: \'door\' must be "blue" or "green"', where=_deck_where(p)),
    "deck_stub": lambda p: gettext("Deck %(where)s: a dead-end stub has one edge and no door or ladder",
                                   where=_deck_where(p)),
    "deck_ladder_door": lambda p: gettext("Deck %(where)s: a segment cannot have both a ladder and a door",
                                          where=_deck_where(p)),
    "deck_effect": lambda p: gettext("Deck %(where)s: 'effect' must be one of %(effects)s", where=_deck_where(p),
                                     effects=", ".join(p["effects"])),
    "deck_tools": lambda p: (
        gettext("Deck %(where)s: a %(effect)s card names 1 tool from %(tools)s", where=_deck_where(p),
                effect=p["effect"], tools=", ".join(p["tools"])) if list(p["counts"]) == [1]
        else gettext("Deck %(where)s: a %(effect)s card names %(counts)s distinct tools from %(tools)s",
                     where=_deck_where(p), effect=p["effect"], counts=or_list([str(n) for n in p["counts"]]),
                     tools=", ".join(p["tools"]))),
}


def refusal(error: EngineError) -> str:
    """The sentence for a refusal by the rules (a code the words do not know reads as the code itself)."""
    tell = MOVES.get(error.code) or SETUPS.get(error.code)
    return tell(error.params) if tell is not None else error.code.replace("_", " ").capitalize()


def engine_words(error: ValueError) -> str:
    """The sentence for an error the engine raised: a refusal in words, any other ValueError as it says itself."""
    return refusal(error) if isinstance(error, EngineError) else str(error)
