"""Turning errors into responses: a page for people, JSON for scripts, always the right status code."""

from __future__ import annotations

import logging

from flask import Flask, Response, jsonify, render_template, request
from werkzeug.exceptions import HTTPException, InternalServerError

from pbem.errors import PbemError

log = logging.getLogger(__name__)


def wants_json() -> bool:
    if request.path.endswith(".json") or request.is_json:
        return True
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return best == "application/json"


def error_response(status: int, code: str, message: str) -> tuple[Response | str, int]:
    if wants_json():
        return jsonify(error=code, message=message), status
    return render_template("error.html", status=status, message=message), status


def handle_pbem_error(error: PbemError) -> tuple[Response | str, int]:
    return error_response(error.status, error.code, error.message)


def handle_http_error(error: HTTPException) -> tuple[Response | str, int]:
    status = error.code or 500
    return error_response(status, (error.name or "error").lower().replace(" ", "_"), error.description or "")


def handle_unexpected(error: Exception) -> tuple[Response | str, int]:
    log.exception("unhandled error on %s %s", request.method, request.path)
    fallback = InternalServerError()
    return error_response(500, "internal_error", fallback.description or "")


def init_app(app: Flask) -> None:
    app.register_error_handler(PbemError, handle_pbem_error)
    app.register_error_handler(HTTPException, handle_http_error)
    app.register_error_handler(Exception, handle_unexpected)
