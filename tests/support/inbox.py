"""Games that send one player the emails an inbox list shows: moves, sweeps and a host's nudge by the injected clock,
and round ends laid out on the board."""

from __future__ import annotations

from datetime import timedelta

import engine
from pbem.clock import SettableClock
from pbem.mail.deliver import Deliverer
from pbem.runtime import Runtime
from tests.support.games import Arranged, NewGame, play
from tests.support.tables import TO_THE_GOALS, arrange, card_in_hand

HOST = "host@example.org"



def ann_reaches_the_gold(runtime: Runtime, arranged_game: Arranged, *, last_round: bool) -> str:
    """Ann lays the last card to the gold; the four gold cards go round the diggers (Ann, Di, Bo, Ann)."""
    state = arrange(4, board=TO_THE_GOALS, hands={0: ["straight_ew"]}, gold=(8, 0), turn=0,
                    roles=["digger", "digger", "saboteur", "digger"])
    if last_round:
        state.round = state.rounds if hasattr(state, "rounds") else 3
    game_id = arranged_game(state)
    play(runtime, game_id, 0, {"type": "play", "card": card_in_hand(state, 0, "straight_ew"), "x": 7, "y": 0,
                               "rotated": False})
    while (current := runtime.games.engine_state(game_id)[0]).phase == engine.GOLD_PICK:
        seat = engine.to_act(current)
        assert seat is not None
        play(runtime, game_id, seat, {"type": "pick_gold", "value": max(current.offer)})
    return game_id


def a_turn_waited_for(
    runtime: Runtime, new_game: NewGame, clock: SettableClock, deliverer: Deliverer
) -> tuple[str, str]:
    """A game whose second player is sent, in turn, the welcome, their turn, the first reminder, the host's nudge,
    the second reminder and the last warning, each delivered as it is queued; (game id, their address)."""
    game_id = new_game()
    deliverer.run()
    state, _ = runtime.games.engine_state(game_id)
    first = engine.to_act(state)
    assert first is not None
    play(runtime, game_id, first, {"type": "pass", "cards": [state.hands[first][0]]})
    deliverer.run()
    second = runtime.games.current_state(game_id).to_act
    assert second is not None
    for hour in range(1, 2 * 24 + 14):  # hourly sweeps until Wednesday 22:00, the evening before the deadline
        clock.advance(timedelta(hours=1))
        if hour == 26:
            runtime.turn_controls.nudge(game_id, second, actor_email=HOST)
        runtime.sweep.run()
        deliverer.run()
    return game_id, f"{state.players[second].lower()}@example.org"
