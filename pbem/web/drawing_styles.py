"""The drawing's stylesheet (`pbem/drawing/board.css`), served beside the page's own and linked after it."""

from __future__ import annotations

from flask import Blueprint, Response, send_file

from pbem.drawing import STYLESHEET

blueprint = Blueprint("drawing", __name__)


@blueprint.get("/static/drawing/board.css")
def stylesheet() -> Response:
    """That one file, cached and revalidated like the other static files (nothing else of the package is served)."""
    return send_file(STYLESHEET, mimetype="text/css")
