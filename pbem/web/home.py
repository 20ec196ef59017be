"""The home page and the health check."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, render_template

from pbem.web.app_context import runtime

blueprint = Blueprint("home", __name__)


@blueprint.get("/")
def index() -> str:
    current = runtime()
    demos = current.games.demo_invites() if current.config.is_development else []
    return render_template("home.html", demos=demos)


@blueprint.get("/healthz")
def healthz() -> tuple[Response, int]:
    """For load balancers and monitors: 200 when the database answers, 503 when it does not."""
    if runtime().db.is_reachable():
        return jsonify(status="ok", database="reachable"), 200
    return jsonify(status="unavailable", database="unreachable"), 503
