"""The machine's floor, for bench/http_bench.py: the cheapest requests this app could answer.

Registered only when the configuration says `bench_routes = true`. Floor A reads one row by primary key
and renders a tiny template; floor B reads one row, inserts one row and commits. The benchmark divides the
turn page's and a move's throughput by these, measured in the same run on the same server, so its figures
mean the same on a fast machine and a busy one. They go through the same `Database` as every page.
"""

from __future__ import annotations

from flask import Blueprint, render_template
from werkzeug.exceptions import NotFound

from pbem.models import Game, HostAction
from pbem.web.app_context import runtime

blueprint = Blueprint("bench_floor", __name__, url_prefix="/bench")


@blueprint.get("/floor-a/<int:game_pk>")
def floor_a(game_pk: int) -> str:
    with runtime().db.read() as session:
        game = session.get(Game, game_pk)
        if game is None:
            raise NotFound()
        return render_template("bench/floor.html", title=game.title, status=game.status)


@blueprint.post("/floor-b/<int:game_pk>")
def floor_b(game_pk: int) -> tuple[str, int]:
    current = runtime()
    with current.db.write() as session:
        game = session.get(Game, game_pk)
        if game is None:
            raise NotFound()
        session.add(
            HostAction(game_id=game.id, actor_email="bench@localhost", action="bench_floor", details={},
                       created_at=current.clock.now())
        )
    return "", 204
