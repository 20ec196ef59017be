"""`engine.round_winners`: who won a finished round, read from its public result alone (what a player's record
counts), in the base game and Saboteur 2, agreeing with who was paid."""
from __future__ import annotations

import pytest

import engine
from tests.support.tables import TO_THE_GOALS, build, card_in_hand, reach_gold


def out_of_cards(table, roles, variant="base", **kw):
    """Nobody reaches the gold: every hand is down to one card, the pile is empty, everyone passes."""
    g = table(len(roles), variant=variant, draw=0, roles=roles, **kw)
    for seat in range(len(roles)):
        g.discard += g.hands[seat][1:]
        g.hands[seat] = g.hands[seat][:1]
    events: list[dict] = []
    while g.round == 1 and g.phase == "play":
        seat = engine.to_act(g)
        g, more = engine.apply_move(g, seat, {"type": "pass", "cards": [g.hands[seat][0]]})
        events += more
    return g, events


def connect(table, roles, reacher, options=None, **kw):
    """Saboteur 2: seat `reacher` joins the start to the gold at (8, 0)."""
    g = table(len(roles), variant="saboteur2", board=TO_THE_GOALS, hands={reacher: ["straight_ew"]}, gold=(8, 0),
              turn=reacher, roles=roles, options=options, **kw)
    return engine.apply_move(g, reacher, build(card_in_hand(g, reacher, "straight_ew"), 7, 0))


def told(g, events, options=None) -> list[int]:
    """The winners as the public view's result says, checked against the round_ended event."""
    result = engine.view(g, None)["results"][0]
    ended = next(e for e in events if e["type"] == "round_ended")
    assert engine.round_winners(ended, options) == engine.round_winners(result, options)
    return engine.round_winners(result, options)


def shares(events) -> set[int]:
    """Seats paid a winner's share (a trapped winner's line says "trapped"), not the crystals."""
    return {e["seat"] for e in events if e["type"] == "gold_paid" and e["reason"] not in ("crystals", "trapped")}


# ---------------------------------------------------------------- the base game


def test_base_the_gold_diggers_win_when_one_reaches_the_gold_even_if_a_saboteur_laid_the_card(table):
    g, events = reach_gold(table, players=5, reacher=1, roles=["digger", "saboteur", "digger", "saboteur", "digger"])

    assert told(g, events) == [0, 2, 4]


def test_base_the_saboteurs_win_when_the_gold_is_missed(table):
    g, events = out_of_cards(table, ["digger", "saboteur", "digger", "saboteur", "digger"])

    assert told(g, events) == [1, 3]


def test_base_nobody_wins_a_missed_round_without_a_saboteur(table):
    g, events = out_of_cards(table, ["digger", "digger", "digger"])

    assert told(g, events) == []


# ---------------------------------------------------------------- Saboteur 2


def test_saboteur2_a_team_that_connects_wins_with_the_boss_and_the_profiteer(table):
    roles = ["blue_digger", "green_digger", "boss", "profiteer", "saboteur"]
    g, events = connect(table, roles, 0)

    winners = told(g, events)
    assert [roles[s] for s in winners] == ["blue_digger", "boss", "profiteer"]
    assert set(winners) == shares(events)


def test_saboteur2_when_no_team_wins_the_saboteurs_and_the_profiteer_do(table):
    g, events = out_of_cards(table, ["blue_digger", "saboteur", "profiteer", "green_digger"], variant="saboteur2")

    assert told(g, events) == [1, 2]


def test_saboteur2_a_trapped_winner_still_won_though_paid_nothing(table):
    g, events = connect(table, ["blue_digger", "blue_digger", "green_digger", "saboteur"], 0, front={1: ["trapped"]})

    assert told(g, events) == [0, 1]
    assert shares(events) == {0}


def test_saboteur2_a_geologist_paid_only_crystals_did_not_win_by_default(table):
    g, events = connect(table, ["boss", "blue_digger", "green_digger", "geologist"], 0)

    assert told(g, events) == [0, 1, 2]


@pytest.mark.parametrize("connector", ["boss", "profiteer", "geologist"])
def test_saboteur2_with_geologists_share_gold_the_geologists_win_when_a_non_saboteur_of_no_team_connects(
    table, connector
):
    options = {"geologists_share_gold": True}
    g, events = connect(table, [connector, "blue_digger", "green_digger", "geologist"], 0, options=options)

    assert told(g, events, options) == [0, 1, 2, 3]
    assert set(told(g, events, options)) == shares(events)


def test_saboteur2_with_geologists_share_gold_a_trapped_geologist_still_won(table):
    options = {"geologists_share_gold": True}
    g, events = connect(table, ["boss", "blue_digger", "green_digger", "geologist"], 0, options=options,
                        front={3: ["trapped"]})

    assert told(g, events, options) == [0, 1, 2, 3]
    assert 3 not in shares(events)


def test_saboteur2_with_geologists_share_gold_a_gold_digger_who_connects_wins_for_their_team_alone(table):
    options = {"geologists_share_gold": True}
    g, events = connect(table, ["blue_digger", "blue_digger", "green_digger", "geologist"], 0, options=options)

    assert told(g, events, options) == [0, 1]
