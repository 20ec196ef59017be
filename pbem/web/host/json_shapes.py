"""The host's JSON answers (`/host/games.json`, `/host/games/<id>.json`), shape by shape; times in ISO 8601."""

from __future__ import annotations

from datetime import datetime
from typing import Any, TypedDict

import engine
from pbem.service.host.hosting import GameDetail, GameRow, SeatRow


class GameRowJson(TypedDict):
    id: str
    title: str
    variant: str
    status: str
    paused: bool
    host_email: str
    round: int | None
    to_act: str | None
    waiting_since: str | None
    deadline: str | None
    last_activity: str | None
    mail_trouble: list[str]
    reminders_sent: int
    waiting_for_host: bool


class SeatTurnJson(TypedDict):
    away_until: str | None
    away_used_hours: float
    timeouts_in_row: int
    absent: bool
    auto_pass: bool


class SeatMailJson(TypedDict):
    sent: int
    waiting: int
    retrying: int
    failed: int
    in_trouble: bool
    last_error: str | None


class SeatJson(TypedDict):
    seat: int
    name: str
    email: str | None
    is_bot: bool
    last_seen_at: str | None
    turn: SeatTurnJson | None
    mail: SeatMailJson | None


class LogEntryJson(TypedDict):
    seq: int
    actor: int | None
    actor_name: str | None
    lines: list[str]


class HostActionJson(TypedDict):
    action: str
    actor: str
    at: str | None
    details: dict[str, Any]


class GameDetailJson(TypedDict):
    game: GameRowJson
    policies: dict[str, Any]
    host_plays: bool
    seats: list[SeatJson]
    view: engine.View | None
    log: list[LogEntryJson]
    host_actions: list[HostActionJson]


def game_row_json(row: GameRow) -> GameRowJson:
    return {
        "id": row.game_id,
        "title": row.title,
        "variant": row.variant,
        "status": row.status,
        "paused": row.paused,
        "host_email": row.host_email,
        "round": row.round,
        "to_act": row.to_act,
        "waiting_since": iso(row.waiting_since),
        "deadline": iso(row.deadline),
        "last_activity": iso(row.last_activity),
        "mail_trouble": row.mail_trouble,
        "reminders_sent": row.reminders_sent,
        "waiting_for_host": row.waiting_for_host,
    }


def seat_json(seat: SeatRow) -> SeatJson:
    turn, mail = seat.turn, seat.mail
    return {
        "seat": seat.seat,
        "name": seat.name,
        "email": seat.email,
        "is_bot": seat.is_bot,
        "last_seen_at": iso(seat.last_seen_at),
        "turn": None if turn is None else {
            "away_until": iso(turn.away_until),
            "away_used_hours": turn.away_used.total_seconds() / 3600,
            "timeouts_in_row": turn.timeouts_in_row,
            "absent": turn.absent,
            "auto_pass": turn.auto_pass,
        },
        "mail": None if mail is None else {
            "sent": mail.sent,
            "waiting": mail.waiting,
            "retrying": mail.retrying,
            "failed": mail.failed,
            "in_trouble": mail.in_trouble,
            "last_error": mail.last_error,
        },
    }


def game_detail_json(detail: GameDetail) -> GameDetailJson:
    return {
        "game": game_row_json(detail.row),
        "policies": detail.policies,
        "host_plays": detail.host_plays,
        "seats": [seat_json(seat) for seat in detail.seats],
        "view": detail.public_view,
        "log": [{"seq": entry.seq, "actor": entry.actor, "actor_name": entry.actor_name, "lines": entry.lines}
                for entry in detail.history],
        "host_actions": [
            {"action": action.action, "actor": action.actor_email, "at": iso(action.created_at),
             "details": action.details}
            for action in detail.actions
        ],
    }


def iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None
