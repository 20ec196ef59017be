"""Who won a finished round, read from its public result: the one place that rule is told to the server."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .rounds import SIDE_ROLE
from .treasure import seats_winning


def round_winners(result: Mapping[str, Any], options: Mapping[str, Any] | None = None) -> list[int]:
    """The seats that won a finished round, in seat order, from its entry in `results` (or its `round_ended` event).

    The base game: every holder of the winning side's role. Saboteur 2: the members of the teams that won with the
    Boss and the Profiteer (and the Geologists when `options` has `geologists_share_gold` and one of those three
    reached the gold), or, when no team won, the Saboteurs and the Profiteer. A trapped winner won, though paid
    nothing; a Geologist paid only crystals did not win. Needs only what every seat sees once the round is over.
    """
    roles: list[str] = list(result["roles"])
    if "teams" in result:
        reached_by = result.get("reached_by")
        connector = roles[reached_by] if reached_by is not None else None
        return seats_winning(roles, list(result["teams"]), connector, dict(options or {}))
    side = SIDE_ROLE.get(result["winner"])
    return [seat for seat, role in enumerate(roles) if role == side]
