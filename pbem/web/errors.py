"""Turning errors into responses: a page for people, JSON for scripts, always the right status code.

The message is in the reader's language (a PbemError's default is translated when read, pbem/errors.py; an HTTP
error's own words are Werkzeug's English, translated here); the JSON's `error` code never changes with it.
"""

from __future__ import annotations

import logging

from flask import Flask, Response, current_app, jsonify, render_template, request
from sqlalchemy.exc import InterfaceError, OperationalError
from werkzeug.exceptions import HTTPException, InternalServerError, RequestEntityTooLarge

from pbem.errors import DatabaseUnavailable, PbemError
from pbem.i18n import gettext
from pbem.variants import MAX_DECK_BYTES
from pbem.web.languages import read_as_browser
from pbem.words.table import N_

log = logging.getLogger(__name__)

# Werkzeug's description of each HTTP error, word for word (the English page says just this), marked for the
# catalogue: an error raised without words of its own is told in the reader's language. tests/web/ checks this
# list against Werkzeug's, so a new wording there is noticed.
HTTP_DESCRIPTIONS = frozenset({
    N_("The browser (or proxy) sent a request that this server could not understand."),
    N_("The server could not verify that you are authorized to access the URL requested. You either supplied the "
       "wrong credentials (e.g. a bad password), or your browser doesn't understand how to supply the credentials "
       "required."),
    N_("You don't have the permission to access the requested resource. It is either read-protected or not readable "
       "by the server."),
    N_("The requested URL was not found on the server. If you entered the URL manually please check your spelling "
       "and try again."),
    N_("The method is not allowed for the requested URL."),
    N_("The resource identified by the request is only capable of generating response entities which have content "
       "characteristics not acceptable according to the accept headers sent in the request."),
    N_("The server closed the network connection because the browser didn't finish the request within the "
       "specified time."),
    N_("A conflict happened while processing the request. The resource might have been modified while the request "
       "was being processed."),
    N_("The requested URL is no longer available on this server and there is no forwarding address. If you followed "
       "a link from a foreign page, please contact the author of this page."),
    N_("A request with this method requires a valid <code>Content-Length</code> header."),
    N_("The precondition on the request for the URL failed positive evaluation."),
    N_("The data value transmitted exceeds the capacity limit."),
    N_("The length of the requested URL exceeds the capacity limit for this server. The request cannot be "
       "processed."),
    N_("The server does not support the media type transmitted in the request."),
    N_("The server cannot provide the requested range."),
    N_("The server could not meet the requirements of the Expect header"),
    N_("This server is a teapot, not a coffee machine"),
    N_("The server is not able to produce a response."),
    N_("The request was well-formed but was unable to be followed due to semantic errors."),
    N_("The resource that is being accessed is locked."),
    N_("The method could not be performed on the resource because the requested action depended on another action "
       "and that action failed."),
    N_('This request is required to be conditional; try using "If-Match" or "If-Unmodified-Since".'),
    N_("This user has exceeded an allotted request count. Try again later."),
    N_("One or more header fields exceeds the maximum size."),
    N_("Unavailable for legal reasons."),
    N_("The server encountered an internal error and was unable to complete your request. Either the server is "
       "overloaded or there is an error in the application."),
    N_("The server does not support the action requested by the browser."),
    N_("The proxy server received an invalid response from an upstream server."),
    N_("The server is temporarily unable to service your request due to maintenance downtime or capacity problems. "
       "Please try again later."),
    N_("The connection to an upstream server timed out."),
    N_("The server does not support the HTTP protocol version used in the request."),
})


def http_message(description: str | None) -> str:
    """An HTTP error's words for its reader: Werkzeug's own description translated; words given when it was raised
    (`abort(404, ...)`) as they were written, where the raiser chose their language."""
    if not description:
        return ""
    return gettext(description) if description in HTTP_DESCRIPTIONS else description


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
    return error_response(status, (error.name or "error").lower().replace(" ", "_"), http_message(error.description))


def handle_too_large(_error: RequestEntityTooLarge) -> tuple[Response | str, int]:
    """The body was refused unread: say how much is accepted, so the sender knows what to shorten."""
    limit = current_app.config["MAX_CONTENT_LENGTH"]
    size = f"{limit // (1024 * 1024)} MB" if limit % (1024 * 1024) == 0 else f"{limit // 1024} KB"
    deck = f"{MAX_DECK_BYTES // 1024} KB"
    return error_response(
        413, "too_large",
        gettext(
            "That was too much to send at once: this server accepts at most %(size)s per request, so nothing was "
            "done. Please go back and send something shorter (a deck file, for example, may be at most %(deck)s).",
            size=size, deck=deck,
        ),
    )


def handle_database_unavailable(error: OperationalError | InterfaceError) -> tuple[Response | str, int]:
    """The database went away (a restart, a lost connection, a read-only or full disk): the transaction rolled
    back, so nothing was half-saved; say so, and when to try again, in this browser's language (a seat's is in the
    database). The pool drops the dead connection."""
    log.warning("database unavailable on %s %s: %s", request.method, request.path, error.orig)
    read_as_browser()
    unavailable = DatabaseUnavailable()
    response, status = error_response(unavailable.status, unavailable.code, unavailable.message)
    if isinstance(response, str):
        response = current_app.make_response(response)
    response.headers["Retry-After"] = str(unavailable.retry_after_seconds)
    return response, status


def handle_unexpected(error: Exception) -> tuple[Response | str, int]:
    log.exception("unhandled error on %s %s", request.method, request.path)
    fallback = InternalServerError()
    return error_response(500, "internal_error", http_message(fallback.description))


def init_app(app: Flask) -> None:
    app.register_error_handler(PbemError, handle_pbem_error)
    app.register_error_handler(RequestEntityTooLarge, handle_too_large)
    app.register_error_handler(HTTPException, handle_http_error)
    app.register_error_handler(OperationalError, handle_database_unavailable)
    app.register_error_handler(InterfaceError, handle_database_unavailable)
    app.register_error_handler(Exception, handle_unexpected)
