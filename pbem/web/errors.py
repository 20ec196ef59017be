"""Turning errors into responses: a page for people, JSON for scripts, always the right status code."""

from __future__ import annotations

import logging

from flask import Flask, Response, current_app, jsonify, render_template, request
from sqlalchemy.exc import InterfaceError, OperationalError
from werkzeug.exceptions import HTTPException, InternalServerError, RequestEntityTooLarge

from pbem.errors import DatabaseUnavailable, PbemError
from pbem.variants import MAX_DECK_BYTES

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


def handle_too_large(_error: RequestEntityTooLarge) -> tuple[Response | str, int]:
    """The body was refused unread: say how much is accepted, so the sender knows what to shorten."""
    limit = current_app.config["MAX_CONTENT_LENGTH"]
    size = f"{limit // (1024 * 1024)} MB" if limit % (1024 * 1024) == 0 else f"{limit // 1024} KB"
    deck = f"{MAX_DECK_BYTES // 1024} KB"
    return error_response(
        413, "too_large",
        f"That was too much to send at once: this server accepts at most {size} per request, so nothing was done. "
        f"Please go back and send something shorter (a deck file, for example, may be at most {deck}).",
    )


def handle_database_unavailable(error: OperationalError | InterfaceError) -> tuple[Response | str, int]:
    """The database went away (a restart, a lost connection, a read-only or full disk): the transaction rolled
    back, so nothing was half-saved; say so, and when to try again. The pool drops the dead connection."""
    log.warning("database unavailable on %s %s: %s", request.method, request.path, error.orig)
    unavailable = DatabaseUnavailable()
    response, status = error_response(unavailable.status, unavailable.code, unavailable.message)
    if isinstance(response, str):
        response = current_app.make_response(response)
    response.headers["Retry-After"] = str(unavailable.retry_after_seconds)
    return response, status


def handle_unexpected(error: Exception) -> tuple[Response | str, int]:
    log.exception("unhandled error on %s %s", request.method, request.path)
    fallback = InternalServerError()
    return error_response(500, "internal_error", fallback.description or "")


def init_app(app: Flask) -> None:
    app.register_error_handler(PbemError, handle_pbem_error)
    app.register_error_handler(RequestEntityTooLarge, handle_too_large)
    app.register_error_handler(HTTPException, handle_http_error)
    app.register_error_handler(OperationalError, handle_database_unavailable)
    app.register_error_handler(InterfaceError, handle_database_unavailable)
    app.register_error_handler(Exception, handle_unexpected)
