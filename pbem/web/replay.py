"""The replay and the downloads a finished game offers, under both forms of a seat's address.

- `/play/<token>/replay` and `/table/<game_id>/replay?step=N`: one step, through the seat's own eyes while
  the game runs, everything once it is over (pbem/service/history/replay.py).
- `.../replay.html`: the whole replay as one file that opens offline; `.../archive.json`: every snapshot,
  move, event, host action and sealed deal. Both only once the game is over, both plain downloads (GET
  changes nothing).

For the host's pages: `host_replay_page`, `replay_file_response` and `archive_response` do the
same for a host, who sees the public view while the game runs and everything after.
"""

from __future__ import annotations

import re
from typing import Any

import orjson
from flask import Response, request

from pbem.i18n import lazy_gettext
from pbem.web.app_context import runtime
from pbem.web.params import LARGEST, optional_int
from pbem.web.player import seat_pages
from pbem.web.replay_page import StepUrl, offline_replay, render_replay
from pbem.web.seat_access import SeatAccess, off_the_address_bar, seat_routes

blueprint = seat_pages("replay", __name__)
seat_route = seat_routes(blueprint)


@seat_route("/replay", ["GET"])
def replay(access: SeatAccess) -> Any:
    step = step_argument()
    moved = off_the_address_bar(access, "replay.replay", **({"step": step} if step is not None else {}))
    if moved is not None:
        return moved
    current = runtime()
    shown = current.chronicle.replay_step(access.link.game_id, access.link.seat, step)
    zone_name = current.seats.profile(access.link.game_id, access.link.seat).timezone
    downloads = {"table": access.url("player.table")}
    if shown.open:
        downloads.update(replay_file=access.url("replay.replay_file"), archive=access.url("replay.archive"))
    return render_replay(
        shown, lambda number: access.url("replay.replay", step=number), zone_name=zone_name, downloads=downloads
    )


@seat_route("/replay.html", ["GET"])
def replay_file(access: SeatAccess) -> Response:
    return replay_file_response(access.link.game_id)


@seat_route("/archive.json", ["GET"])
def archive(access: SeatAccess) -> Response:
    return archive_response(access.link.game_id)


def host_replay_page(game_id: str, step: int | None, step_url: StepUrl) -> str:
    """The host's replay at `step` (None: the latest): the public view while the game runs, everything after."""
    return render_replay(runtime().chronicle.host_replay_step(game_id, step), step_url)


def replay_file_response(game_id: str) -> Response:
    """The offline replay file as a download (GameNotOver while the game runs)."""
    chronicle = runtime().chronicle
    steps = chronicle.replay_all(game_id)
    return _download(offline_replay(steps), "text/html; charset=utf-8", f"{_slug(steps[-1].title)}-replay.html")


def archive_response(game_id: str, *, include_emails: bool = False) -> Response:
    """The JSON archive as a download (GameNotOver while the game runs); emails only for the host's pages."""
    data = runtime().chronicle.archive(game_id, include_emails=include_emails)
    body = orjson.dumps(data, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS).decode()
    return _download(body, "application/json; charset=utf-8", f"{_slug(data['game']['title'])}-archive.json")


def step_argument() -> int | None:
    """`?step=`: a turn of the game (a number past either end shows that end)."""
    return optional_int(request.args.get("step"), lazy_gettext("The step must be a whole number."), minimum=-LARGEST)


def _download(body: str, mimetype: str, filename: str) -> Response:
    response = Response(body, content_type=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:60] or "saboteur"
