"""Saboteur 2 end of a round: who wins through the doors, gold pieces, Geologists, trapped players,
thefts, what others may see of your gold, and the end of the game. Includes the rulebook's example."""
from __future__ import annotations

import pytest

import engine
from pbem.words.events import describe_event
from tests.support.refusals import refused
from tests.support.tables import SEATS, TO_THE_GOALS, build, card_in_hand

BLUE_DOOR = {(3, 0): "door_blue_ew"}
GREEN_DOOR = {(3, 0): "door_green_ew"}
BOTH_DOORS = {(2, 0): "door_green_ew", (3, 0): "door_blue_ew"}


def connect(table, roles, reacher, doors=None, board=None, **kw):
    """The seat `reacher` lays the card that joins the start to the gold at (8, 0)."""
    g = table(len(roles), variant="saboteur2", board=TO_THE_GOALS | (doors or {}) | (board or {}),
              hands={reacher: ["straight_ew"]}, gold=(8, 0), turn=reacher, roles=roles, **kw)
    return engine.apply_move(g, reacher, build(card_in_hand(g, reacher, "straight_ew"), 7, 0))


def run_out_of_cards(table, roles, setup=None, **kw):
    """Nobody reaches the gold: every hand is down to one card, the pile is empty, everyone passes.

    `setup` may change the arranged game first (the round, the order the Thefts were played in)."""
    g = table(len(roles), variant="saboteur2", draw=0, roles=roles, **kw)
    if setup:
        setup(g)
    for seat in range(len(roles)):
        g.discard += g.hands[seat][1:]
        g.hands[seat] = g.hands[seat][:1]
    events: list[dict] = []
    first = g.round
    while g.round == first and g.phase == "play":
        seat = engine.to_act(g)
        g, more = engine.apply_move(g, seat, {"type": "pass", "cards": [g.hands[seat][0]]})
        events += more
    return g, events


def paid(events) -> dict[int, int]:
    return {e["seat"]: e["amount"] for e in events if e["type"] == "gold_paid"}


def ended(events) -> dict:
    return next(e for e in events if e["type"] == "round_ended")


# ---------------------------------------------------------------- who wins


def test_a_team_wins_when_one_of_its_dwarves_connects_and_no_door_of_the_other_colour_bars_it(table):
    g, events = connect(table, ["blue_digger", "blue_digger", "green_digger", "saboteur"], 0, doors=BLUE_DOOR)

    assert ended(events)["teams"] == ["blue"] and ended(events)["claims"] == {"blue": True, "green": False}
    assert paid(events) == {0: 4, 1: 4}
    assert g.gold_pieces == [4, 4, 0, 0] and engine.scores(g) == [4, 4, 0, 0]


def test_the_other_team_wins_when_a_door_bars_the_team_that_connected(table):
    g, events = connect(table, ["green_digger", "blue_digger", "green_digger", "saboteur"], 0, doors=BLUE_DOOR)

    assert ended(events)["winner"] == "diggers" and ended(events)["teams"] == ["blue"]
    assert paid(events) == {1: 5}


def test_only_the_connecting_team_wins_when_both_teams_could_claim(table):
    _, events = connect(table, ["blue_digger", "green_digger", "green_digger", "saboteur"], 0)

    assert ended(events)["teams"] == ["blue"] and paid(events) == {0: 5}


@pytest.mark.parametrize("role, doors, expected", [
    ("boss", {}, {1: 3, 2: 3, 0: 2}),
    ("profiteer", {}, {1: 3, 2: 3, 0: 1}),
    ("geologist", {}, {1: 4, 2: 4, 0: 0}),
    ("boss", BLUE_DOOR, {1: 4, 0: 3}),
    ("geologist", GREEN_DOOR, {2: 5, 0: 0}),
])
def test_when_the_boss_profiteer_or_a_geologist_connects_every_team_that_can_claim_wins(table, role, doors, expected):
    _, events = connect(table, [role, "blue_digger", "green_digger", "saboteur"], 0, doors=doors)

    assert paid(events) == expected


def test_a_saboteur_who_connects_lets_every_team_that_can_claim_win(table):
    _, events = connect(table, ["saboteur", "blue_digger", "green_digger", "boss"], 0, doors=GREEN_DOOR)

    assert ended(events)["teams"] == ["green"] and paid(events) == {2: 4, 3: 3}


def test_when_doors_bar_both_teams_the_saboteurs_side_wins_though_the_gold_was_reached(table):
    _, events = connect(table, ["blue_digger", "saboteur", "profiteer", "green_digger"], 0, doors=BOTH_DOORS)

    assert ended(events)["winner"] == "saboteurs" and ended(events)["reached_by"] == 0
    assert paid(events) == {1: 4, 2: 2}
    assert "doors of both colours bar the way" in describe_event(ended(events), SEATS[:4])


def test_the_saboteurs_and_the_profiteer_win_when_the_gold_is_not_reached(table):
    g, events = run_out_of_cards(table, ["saboteur", "blue_digger", "saboteur", "profiteer", "green_digger"])

    assert ended(events)["winner"] == "saboteurs" and ended(events)["reached_by"] is None
    assert paid(events) == {0: 3, 2: 3, 3: 1}
    assert g.round == 2


def test_nobody_wins_when_the_gold_is_missed_and_nobody_is_on_the_saboteurs_side(table):
    _, events = run_out_of_cards(table, ["blue_digger", "green_digger", "boss"])

    assert ended(events)["winner"] == "nobody" and paid(events) == {}


# ---------------------------------------------------------------- how much


@pytest.mark.parametrize("blues, others, share", [
    (1, [], 5), (2, [], 4), (3, [], 3), (4, [], 2), (4, ["boss"], 1), (4, ["boss", "profiteer"], 1),
])
def test_gold_pieces_per_winner_depend_on_how_many_win(table, blues, others, share):
    roles = ["blue_digger"] * blues + others + ["saboteur"]

    _, events = connect(table, roles, 0)

    assert [paid(events)[s] for s in range(blues)] == [share] * blues


def test_the_boss_gets_one_less_and_the_profiteer_two_less_but_never_below_nothing(table):
    roles = ["blue_digger", "boss", "profiteer", "saboteur"]
    _, three = connect(table, roles, 0)
    _, six = connect(table, ["blue_digger"] * 4 + ["boss", "profiteer", "saboteur"], 0)

    assert paid(three) == {0: 3, 1: 2, 2: 1}
    assert paid(six) == {0: 1, 1: 1, 2: 1, 3: 1, 4: 0, 5: 0}
    assert [(e["base"], e["reason"]) for e in three if e["type"] == "gold_paid"] == [
        (3, "blue"), (3, "boss"), (3, "profiteer")]


CRYSTALS = {(0, 1): "crystal_cross", (0, -1): "crystal_tee_nse", (5, 5): "crystal_dead_n"}  # the last one cut off


def test_geologists_share_every_visible_crystal_rounded_down(table):
    _, events = run_out_of_cards(table, ["geologist", "geologist", "saboteur"], board=CRYSTALS)

    assert paid(events) == {2: 5, 0: 1, 1: 1}
    assert ended(events)["crystals"] == 3
    assert describe_event(next(e for e in events if e.get("seat") == 0 and e["type"] == "gold_paid"),
                                 SEATS[:3]) == "Ann gets 1 gold piece for the 3 crystals in the tunnels."


def test_a_geologist_is_paid_the_crystals_whichever_side_wins(table):
    _, events = connect(table, ["blue_digger", "geologist", "saboteur"], 0, board=CRYSTALS)

    assert paid(events) == {0: 5, 1: 3}


def test_trapped_players_get_nothing_and_do_not_count_as_winners(table):
    _, events = connect(table, ["blue_digger", "blue_digger", "blue_digger", "saboteur"], 0, front={1: ["trapped"]})

    assert paid(events) == {0: 4, 1: 0, 2: 4}
    assert ended(events)["trapped"] == [1]
    assert [e["reason"] for e in events if e["type"] == "gold_paid" and e["seat"] == 1] == ["trapped"]


def test_a_trapped_geologist_gets_nothing_and_the_other_takes_all_the_crystals(table):
    _, events = run_out_of_cards(table, ["geologist", "geologist", "saboteur"], board=CRYSTALS,
                                 front={0: ["trapped"]})

    assert paid(events) == {2: 5, 0: 0, 1: 3}


# ---------------------------------------------------------------- thefts


def test_after_the_payout_the_last_to_play_a_theft_steals_first_then_the_others_clockwise(table):
    roles = ["saboteur", "saboteur", "blue_digger", "green_digger", "profiteer"]

    def seat_3_played_the_latest_theft(game):
        game.theft_order = [4, 1, 3]

    g, events = run_out_of_cards(table, roles, seat_3_played_the_latest_theft,
                                 front={1: ["theft"], 3: ["theft"], 4: ["theft"]}, pieces={2: 2})
    order = []
    while g.phase == "steal":
        seat = engine.to_act(g)
        order.append(seat)
        g, _ = engine.apply_move(g, seat, {"type": "steal", "target": 2 if g.gold_pieces[2] else 0})

    assert order == [3, 4, 1]
    assert g.round == 2 and sum(g.gold_pieces) == 2 + 3 + 3 + 1
    assert [t["seat"] for t in g.results[-1]["thefts"]] == [3, 4, 1]


def test_each_steal_is_a_decision_listing_the_players_with_gold_and_a_way_to_let_it_go(table):
    g, events = run_out_of_cards(table, ["saboteur", "blue_digger", "green_digger", "geologist"],
                                 front={2: ["theft"]}, pieces={1: 1})

    assert engine.to_act(g) == 2 and g.phase == "steal"
    assert engine.legal_moves(g, 2) == [{"type": "steal", "target": 0}, {"type": "steal", "target": 1},
                                        {"type": "steal", "target": None}]
    assert engine.view(g, None)["steal"] == {"seat": 2, "targets": [0, 1]}
    declined, more = engine.apply_move(g, 2, {"type": "steal", "target": None})
    assert {"type": "theft_unused", "audience": "public", "seat": 2, "reason": "declined"} in more
    assert declined.round == 2 and declined.gold_pieces == g.gold_pieces
    stole, more = engine.apply_move(g, 2, {"type": "steal", "target": 0})
    assert stole.gold_pieces == [4, 1, 1, 0]
    assert describe_event(next(e for e in more if e["type"] == "gold_stolen"), SEATS[:4]) == (
        "Cy stole a gold piece from Ann.")


def test_a_steal_from_yourself_or_from_a_player_without_gold_is_refused(table):
    g, _ = run_out_of_cards(table, ["saboteur", "blue_digger", "green_digger"], front={2: ["theft"]})

    with refused("Bo has no gold to steal"):
        engine.apply_move(g, 2, {"type": "steal", "target": 1})
    with refused("from yourself"):
        engine.apply_move(g, 2, {"type": "steal", "target": 2})
    with refused("Decide on your Theft"):
        engine.apply_move(g, 2, {"type": "pass", "cards": []})


def test_stealing_is_refused_when_no_theft_is_being_decided(table):
    g = table(3, variant="saboteur2", pieces={1: 3})

    with refused("nothing to steal now"):
        engine.apply_move(g, 0, {"type": "steal", "target": 1})


def test_a_trapped_thief_cannot_steal(table):
    g, events = run_out_of_cards(table, ["saboteur", "blue_digger", "green_digger"],
                                 front={1: ["theft", "trapped"]})

    assert {"type": "theft_unused", "audience": "public", "seat": 1, "reason": "trapped"} in events
    assert g.round == 2 and g.gold_pieces == [5, 0, 0]


def test_a_thief_with_nobody_to_rob_loses_the_chance(table):
    g, events = run_out_of_cards(table, ["saboteur", "blue_digger", "green_digger"], front={0: ["theft"]})

    assert {"type": "theft_unused", "audience": "public", "seat": 0, "reason": "no_gold_to_steal"} in events
    assert g.round == 2


# ---------------------------------------------------------------- the rulebook's example


@pytest.mark.parametrize("reacher", [3, 1], ids=["the Boss connects", "a green gold-digger connects"])
def test_the_rulebook_example_of_sharing_the_treasure(table, reacher):
    # 1 blue and 2 green gold-diggers, the Boss, the Profiteer and 2 saboteurs; a blue door bars the way;
    # both saboteurs have a Theft in front of them and one of them is trapped
    roles = ["blue_digger", "green_digger", "green_digger", "boss", "profiteer", "saboteur", "saboteur"]
    g, events = connect(table, roles, reacher, doors=BLUE_DOOR, front={5: ["theft"], 6: ["theft", "trapped"]})

    assert ended(events)["teams"] == ["blue"]
    assert paid(events) == {0: 3, 3: 2, 4: 1}
    assert {"type": "theft_unused", "audience": "public", "seat": 6, "reason": "trapped"} in events
    assert engine.to_act(g) == 5 and engine.view(g, 5)["steal"]["targets"] == [0, 3, 4]

    g, more = engine.apply_move(g, 5, {"type": "steal", "target": 0})

    assert g.gold_pieces == [2, 0, 0, 2, 1, 1, 0]
    lines = [describe_event(e, SEATS[:7]) for e in events + more
             if e["type"] in ("gold_paid", "gold_stolen", "theft_unused")]
    assert lines == [
        "Ann gets 3 gold pieces for the blue team.",
        "Di gets 2 gold pieces as the Boss, one less than the share.",
        "Ed gets 1 gold piece as the Profiteer, two less than the share.",
        "Gus could not steal, being trapped.",
        "Flo stole a gold piece from Ann.",
    ]


# ---------------------------------------------------------------- what others see, the end of the game


def test_other_seats_see_whether_a_player_has_gold_but_not_how_much(table):
    g = table(3, variant="saboteur2", pieces={1: 7})

    others, own = engine.view(g, 0), engine.view(g, 1)

    assert [s["has_gold"] for s in others["seats"]] == [False, True, False]
    assert others["you"]["gold_pieces"] == 0 and own["you"]["gold_pieces"] == 7 and own["you"]["gold_total"] == 7
    assert all("gold_pieces" not in s and 7 not in s.values() for s in others["seats"])


def test_the_round_ends_when_no_player_has_a_card_left(table):
    g, events = run_out_of_cards(table, ["saboteur", "blue_digger", "green_digger"])

    assert [e["type"] for e in events].count("out_of_cards") == 3
    assert ended(events)["round"] == 1 and g.round == 2


def test_after_three_rounds_the_most_gold_pieces_win_and_ties_share_the_win(table):
    def last_round(game):
        game.round = 3

    g, events = run_out_of_cards(table, ["saboteur", "blue_digger", "green_digger"], last_round, pieces={1: 5})

    over = next(e for e in events if e["type"] == "game_over")
    assert engine.is_over(g) and over["scores"] == [5, 5, 0] and over["winners"] == [0, 1]
    assert engine.scores(g) == [5, 5, 0] and engine.view(g, 2)["final"]["winners"] == [0, 1]


# ---------------------------------------------------------------- the Geologists and the "non-Saboteurs"


def gold_by_seat(events) -> dict[int, int]:
    """Every gold piece paid, added up per seat (a Geologist may get a share and the crystals)."""
    totals: dict[int, int] = {}
    for e in events:
        if e["type"] == "gold_paid":
            totals[e["seat"]] = totals.get(e["seat"], 0) + e["amount"]
    return totals


def test_by_default_geologists_are_not_counted_among_the_winners_and_take_only_their_crystals(table):
    """Rulebook: "Both teams win (along with all other 'non-Saboteurs') if The Boss, The Geologist or The
    Profiteer creates the connection". Read strictly (the default), the Geologists keep to their crystals."""
    _, events = connect(table, ["boss", "blue_digger", "green_digger", "geologist"], 0)

    assert gold_by_seat(events) == {0: 2, 1: 3, 2: 3, 3: 0}


@pytest.mark.parametrize("connector", ["boss", "profiteer", "geologist"])
def test_with_geologists_share_gold_the_geologists_win_with_both_teams_when_boss_profiteer_or_geologist_connects(
    table, connector
):
    """Rulebook: "Both teams win (along with all other 'non-Saboteurs') if The Boss, The Geologist or The
    Profiteer creates the connection". Option `geologists_share_gold` counts the Geologists as such winners."""
    roles = [connector, "blue_digger", "green_digger", "geologist"]
    _, events = connect(table, roles, 0, options={"geologists_share_gold": True})

    share = 2  # four winners
    expected = {"boss": share - 1, "profiteer": share - 2, "geologist": share}[connector]
    assert gold_by_seat(events) == {0: expected, 1: share, 2: share, 3: share}
    assert {"seat": 3, "amount": share, "base": share, "reason": "geologist"} in [
        {k: v for k, v in e.items() if k not in ("type", "audience")} for e in events if e["type"] == "gold_paid"]


def test_with_geologists_share_gold_a_geologist_still_takes_the_crystals_as_well(table):
    roles = ["geologist", "blue_digger", "green_digger", "saboteur"]
    _, events = connect(table, roles, 0, options={"geologists_share_gold": True},
                        board={(2, 1): "crystal_tee_nse"})

    crystals = [e for e in events if e["type"] == "gold_paid" and e["reason"] == "crystals"]
    assert crystals == [{"type": "gold_paid", "audience": "public", "seat": 0, "amount": 1, "base": 1,
                         "reason": "crystals"}]
    assert gold_by_seat(events) == {0: 3 + 1, 1: 3, 2: 3}


def test_with_geologists_share_gold_a_gold_digger_who_connects_wins_for_their_team_alone(table):
    roles = ["blue_digger", "blue_digger", "green_digger", "geologist"]
    _, events = connect(table, roles, 0, options={"geologists_share_gold": True})

    assert gold_by_seat(events) == {0: 4, 1: 4, 3: 0}


def test_the_geologists_option_belongs_to_saboteur2_only():
    with refused("belongs to the saboteur2 game", engine.InvalidSetup):
        engine.new_game(["Ann", "Bo", "Cy"], seed=1, options={"geologists_share_gold": True})
