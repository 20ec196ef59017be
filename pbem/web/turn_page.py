"""Everything the turn page shows one seat, gathered from its view, its legal moves and its history.

Built only from `GameService.current_state(game, seat)` (the engine's view for that seat and its legal
moves), `GameService.history(game, seat)` (public events plus that seat's own) and the seat's profile, so
the page cannot show what the engine hides from that seat.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import cached_property, lru_cache
from typing import Any
from zoneinfo import available_timezones

from markupsafe import Markup, escape

import engine
from pbem.drawing.card_art import card_svg
from pbem.i18n import current_language, gettext, ngettext, pgettext
from pbem.memo import Memo
from pbem.models import GameStatus
from pbem.results_text import gold_unit, outcome, payout_line, share_line, theft_line
from pbem.service.seats.seats import SeatProfile
from pbem.service.timing.deadlines import policy, turn_deadline
from pbem.service.turns.values import GameState, HistoryEntry
from pbem.times import ago, local_time, until
from pbem.web.hand_reasons import Unplayable, unplayable_reason
from pbem.web.moves import MoveGroup, goal_names, group_moves, join_words
from pbem.web.rules_page import card_help
from pbem.words.board import drawn_board, drawn_words
from pbem.words.cards import card_name
from pbem.words.places import side_name
from pbem.words.roles import role_goal, role_title


@dataclass(frozen=True)
class FrontCard:
    """A card lying in front of a seat: a broken tool, or Saboteur 2's Theft and Trapped!."""

    info: engine.CardInfo

    @property
    def art(self) -> Markup:
        """Drawn when a template shows it (a broken tool shows an icon instead)."""
        return card_svg(self.info, css_class="front-art", words=drawn_words())

    @property
    def label(self) -> str:
        """Its printed name, in the reader's language."""
        return card_name(self.info)


@dataclass(frozen=True)
class SeatRow:
    seat: int
    name: str
    is_you: bool
    is_bot: bool
    to_act: bool
    broken: list[str]
    hand_count: int
    gold_cards: int
    front: list[FrontCard]
    has_gold: bool | None  # Saboteur 2: whether the seat holds any gold piece (the amount is not shown)
    trapped: bool
    theft: bool
    away: str | None = None  # "away until Fri 3 Dec", in the reader's time zone


@dataclass(frozen=True)
class HandCard:
    info: engine.CardInfo
    movable: bool  # has a move other than discarding it
    unplayable: Unplayable | None = None  # on the seat's turn, why a card with no other move can only be discarded

    @property
    def art(self) -> Markup:
        """Drawn when a template shows it: the hand is part of the main column, usually drawn already (pbem/memo.py)."""
        return card_svg(self.info, words=drawn_words())

    @property
    def label(self) -> str:
        """Its printed name, in the reader's language."""
        return card_name(self.info)

    @property
    def help(self) -> str:
        """What the card does, for its "?" and its tooltip."""
        return card_help(self.info)


@dataclass(frozen=True)
class LogEntry:
    seq: int
    when: str
    actor: str | None
    lines: list[str]


@dataclass(frozen=True)
class RoundResult:
    round: int
    summary: str
    roles: list[tuple[str, str]]
    share: str = ""
    payouts: list[str] = field(default_factory=list)
    thefts: list[str] = field(default_factory=list)
    final_view: engine.FinalBoard | None = None  # the table as the round ended (`final_board` of its result)

    @cached_property
    def board(self) -> Markup | None:
        """The round's final table, drawn like the board (only when a template shows it, once per remembered
        result: `build_turn_page`)."""
        if self.final_view is None:
            return None
        return drawn_board(self.final_view, name="final-board",
                           title=gettext("Round %(round)s as it ended", round=self.round))


@dataclass(frozen=True)
class TurnPage:
    state: GameState
    seat: int
    name: str
    view: Mapping[str, Any]  # the seat's engine.View
    you: Mapping[str, Any]  # its "you"
    role: str
    role_hint: str
    your_turn: bool
    inert_reason: str  # why the hand cannot be played now ("" when it can)
    picking_gold: bool
    gold_story: str
    headline: str
    waiting_since: str | None
    deadline: str | None
    deadline_close: bool  # inside the warning window: the deadline is shown as urgent
    deadline_moved_from: str | None  # the deadline the turn began with, when it has moved since
    board: Markup
    board_listing: list[str]
    seats: list[SeatRow]
    groups: list[MoveGroup]
    log: Markup
    results: list[RoundResult]
    final: list[tuple[str, int, bool]] | None
    notify_mode: str
    submission_id: str
    variant: str
    units: tuple[str, str]  # what gold is counted in: ("nugget", "nuggets") or ("gold piece", "gold pieces")
    stealing: bool  # Saboteur 2: this seat's Theft is the pending decision
    profile: SeatProfile | None = None  # away time, quiet hours, the card to discard on a timeout

    @property
    def round_just_ended(self) -> bool:
        """The last round to end is the one just before this one (or the game ended with it)."""
        if not self.results:
            return False
        return self.final is not None or self.view.get("round", 0) <= self.results[-1].round + 1

    def zone_options(self, selected: str) -> Markup:
        """The settings' choice of time zone as `<option>` elements, `selected` chosen."""
        return zone_options(selected)

    @property
    def playing(self) -> bool:
        """A turn to play or pass (not a gold pick or a steal): the hand and the move list are in play."""
        return self.your_turn and not self.picking_gold and not self.stealing

    # Read only when a part of the page is drawn (most looks reuse the drawing: pbem/web/player.py).
    @cached_property
    def hand(self) -> list[HandCard]:
        """The seat's cards; on its turn to play, each card with nothing but a discard says why."""
        legal_cards = {move.get("card") for move in self.state.legal_moves if move.get("type") == "play"}
        return _hand(self.you.get("hand", []), legal_cards, self.view, playing=self.playing)

    @cached_property
    def peeks(self) -> list[str]:
        """What this seat's Maps showed it this round."""
        return _peeks(self.view)

    @cached_property
    def inspections(self) -> list[str]:
        """Saboteur 2: the dwarf cards this seat saw this round."""
        names = self.state.players
        return [
            gettext("%(name)s: %(role)s", name=names[seen["seat"]], role=role_words(seen["role"], "saboteur2")[0])
            for seen in self.you.get("inspections", [])
        ]


def build_turn_page(
    state: GameState, log: Markup, profile: SeatProfile, now: datetime, memo: Memo | None = None
) -> TurnPage:
    """The page for a started game (`state.view` present). `log`: the seat's history, drawn (`log_entries`).

    With a `memo`, what depends on this snapshot and seat alone (the board's drawing and listing, the moves
    grouped and labelled) is made once per process (pbem/memo.py)."""
    view: Mapping[str, Any] = state.view or {}
    you: Mapping[str, Any] = view.get("you") or {}
    seat = profile.seat
    names = state.players
    role, hint = role_words(you.get("role", ""), view.get("variant", "base"), view.get("options", {}))
    live = state.status == GameStatus.ACTIVE and not state.paused
    your_turn = live and state.to_act == seat and bool(state.legal_moves)
    picking = your_turn and view.get("phase") == "gold"
    stealing = your_turn and view.get("phase") == "steal"
    since = state.turn_started_at
    deadline = None
    if state.to_act is not None and not state.paused:
        # The turn's clock holds the deadline (quiet hours, away time, extensions); a game from before clocks: policy.
        deadline = profile.deadline_at or turn_deadline(since, profile.policies)
    drawn = _snapshot_parts(state, seat, your_turn, memo)
    return TurnPage(
        state=state,
        seat=seat,
        name=names[seat],
        view=view,
        you=you,
        role=role,
        role_hint=hint,
        your_turn=your_turn,
        inert_reason="" if your_turn else _inert_reason(state, profile.computer_seats),
        picking_gold=picking,
        gold_story=_gold_story(view, names) if picking else "",
        headline=_headline(state, seat, picking, stealing, profile.computer_seats),
        waiting_since=f"{local_time(since, profile.timezone)} ({ago(since, now)})"
        if since and state.to_act is not None
        else None,
        deadline=f"{local_time(deadline, profile.timezone)} ({until(deadline, now)})" if deadline else None,
        deadline_close=deadline is not None and deadline - now <= _warning_window(profile.policies),
        deadline_moved_from=(
            local_time(profile.deadline_moved_from, profile.timezone)
            if deadline is not None and profile.deadline_moved_from is not None else None
        ),
        board=drawn.board,
        board_listing=drawn.board_listing,
        seats=[
            SeatRow(
                seat=row["seat"],
                name=row["name"],
                is_you=row["seat"] == seat,
                is_bot=row["seat"] in profile.computer_seats,
                to_act=row["to_act"],
                broken=list(row["broken"]),
                hand_count=row["hand_count"],
                gold_cards=row["gold_cards"],
                front=[FrontCard(card) for card in row.get("front", [])],
                has_gold=row.get("has_gold"),
                trapped=bool(row.get("trapped")),
                theft=bool(row.get("theft")),
                away=profile.away.get(row["seat"]),
            )
            for row in view.get("seats", [])
        ],
        groups=drawn.groups,
        log=log,
        results=_results(state, seat, memo),
        final=_final(view, names),
        notify_mode=profile.notify_mode,
        submission_id=new_submission_id(),
        variant=view.get("variant", "base"),
        units=gold_unit(view),
        stealing=stealing,
        profile=profile,
    )


def _hand(
    cards: Sequence[engine.CardInfo], legal_cards: set[Any], view: Mapping[str, Any], *, playing: bool
) -> list[HandCard]:
    def card(info: engine.CardInfo) -> HandCard:
        movable = info["id"] in legal_cards
        return HandCard(info, movable, unplayable_reason(info, view) if playing and not movable else None)

    return [card(info) for info in cards]


@dataclass(frozen=True)
class SnapshotParts:
    """What the page shows that follows from the snapshot and the seat alone."""

    board: Markup
    board_listing: list[str]
    groups: list[MoveGroup]


def _snapshot_parts(state: GameState, seat: int, your_turn: bool, memo: Memo | None) -> SnapshotParts:
    view: Mapping[str, Any] = state.view or {}

    def draw() -> SnapshotParts:
        groups = group_moves(state.legal_moves, view) if your_turn else []
        return SnapshotParts(board=drawn_board(view),
                             board_listing=board_listing(view), groups=groups)

    if memo is None:
        return draw()
    # The moves are labelled with the players' names, which a seat changing hands changes without a new snapshot;
    # whether they are listed at all changes with a pause.
    key = ("snapshot_parts", state.game_id, state.seq, seat, your_turn, tuple(state.players), current_language())
    return memo.get_or_make("fragment", key, draw)


def _results(state: GameState, seat: int, memo: Memo | None) -> list[RoundResult]:
    """The finished rounds told with the players' names; with a `memo`, made once per snapshot, seat and names, so
    each round's final table is drawn once (`RoundResult.board`)."""
    names = state.players

    def make() -> list[RoundResult]:
        return [_round_result(result, names) for result in state.view["results"]] if state.view else []

    if memo is None:
        return make()
    key = ("results", state.game_id, state.seq, seat, tuple(names), current_language())
    return memo.get_or_make("fragment", key, make)


@dataclass(frozen=True)
class LogEntries:
    """The seat's history for the log: the moves since its own last one, and the ones before."""

    recent: list[LogEntry]
    earlier: list[LogEntry]


def log_entries(history: Sequence[HistoryEntry], seat: int, names: Sequence[str], zone_name: str) -> LogEntries:
    last_own = max((entry.seq for entry in history if entry.actor == seat), default=0)
    entries = [_log_entry(entry, names, zone_name) for entry in history]
    return LogEntries(
        recent=[entry for entry in entries if entry.seq > last_own],
        earlier=[entry for entry in entries if entry.seq <= last_own],
    )


def role_words(role: str, variant: str, options: Mapping[str, Any] | None = None) -> tuple[str, str]:
    """A role's name and one line on how it wins (under the game's options)."""
    return role_title(role), role_goal(role, variant, options)


@lru_cache(maxsize=1)
def time_zone_names() -> tuple[str, ...]:
    return tuple(sorted(available_timezones()))


@lru_cache(maxsize=64)
def zone_options(selected: str) -> Markup:
    """Every time zone as an `<option>`, `selected` chosen: some 600 of them, the same for every look at a table in
    that zone, so written once per zone in this process."""
    return Markup("".join(
        f"<option{' selected' if name == selected else ''}>{escape(name)}</option>" for name in time_zone_names()
    ))


def new_submission_id() -> str:
    """Made when a form is drawn: a second click on the same form repeats this id and applies nothing more."""
    return secrets.token_urlsafe(16)


def board_listing(view: Mapping[str, Any]) -> list[str]:
    """The board in words, for screen readers and anyone who prefers a list: one line per card."""
    goals = goal_names(view)
    last = tuple(view["last_placed"]) if view.get("last_placed") else None
    over = view.get("phase") == "over"
    lines = []
    for card in view["board"]:
        cell = (card["x"], card["y"])
        fields = {"x": cell[0], "y": cell[1]}
        if card["kind"] == "goal":
            place = goals.get(cell) or gettext("goal")
            text = (gettext("(%(x)s, %(y)s): the %(place)s goal, turned over: gold", place=place, **fields)
                    if card.get("gold") else
                    gettext("(%(x)s, %(y)s): the %(place)s goal, turned over: stone", place=place, **fields))
        elif card["kind"] == "start":
            text = gettext("(%(x)s, %(y)s): the start", **fields)
        else:
            text = gettext("(%(x)s, %(y)s): %(card)s, %(tunnels)s", card=card_name(card), tunnels=_tunnel_words(card),
                           **fields)
        lines.append(gettext("%(line)s (the last card played)", line=text) if cell == last else text)
    for goal in view["goals"]:
        if goal["revealed"]:
            continue
        fields = {"x": goal["x"], "y": goal["y"], "place": goals.get((goal["x"], goal["y"])) or gettext("goal")}
        if over:
            lines.append(gettext("(%(x)s, %(y)s): the %(place)s goal: gold", **fields) if goal["gold"]
                         else gettext("(%(x)s, %(y)s): the %(place)s goal: stone", **fields))
        elif goal.get("seen"):
            lines.append(gettext("(%(x)s, %(y)s): the %(place)s goal, face down; you looked: gold", **fields)
                         if goal["gold"] else
                         gettext("(%(x)s, %(y)s): the %(place)s goal, face down; you looked: stone", **fields))
        else:
            lines.append(gettext("(%(x)s, %(y)s): the %(place)s goal, face down", **fields))
    return lines


def _tunnel_words(card: Mapping[str, Any]) -> str:
    segments = card.get("segments", [])
    if segments and all(segment.get("dead") for segment in segments):
        sides = [side_name(segment["edges"]) for segment in segments]
        return gettext("a dead end (blocked), stubs to the %(sides)s", sides=join_words(sides))
    parts = []
    for segment in segments:
        sides = [side_name(edge) for edge in segment["edges"]]
        if segment.get("dead"):
            part = gettext("a dead stub to the %(side)s", side=sides[0])
        else:
            part = gettext("tunnel joining %(sides)s", sides=join_words(sides))
        if segment.get("door") == "blue":
            part = gettext("%(tunnel)s, with a blue door", tunnel=part)
        elif segment.get("door") == "green":
            part = gettext("%(tunnel)s, with a green door", tunnel=part)
        elif segment.get("door"):
            part = gettext("%(tunnel)s, with a %(colour)s door", tunnel=part, colour=segment["door"])
        if segment.get("ladder"):
            part = gettext("%(tunnel)s, with a ladder", tunnel=part)
        parts.append(part)
    tunnels = sum(1 for segment in segments if not segment.get("dead"))
    joined = pgettext("tunnel parts", "; ").join(parts)
    text = gettext("two separate tunnels: %(tunnels)s", tunnels=joined) if tunnels == 2 else joined
    crystals = int(card.get("crystals", 0) or 0)
    if crystals:
        text = ngettext("%(tunnels)s; %(num)d crystal", "%(tunnels)s; %(num)d crystals", crystals, tunnels=text)
    return text


def _headline(state: GameState, seat: int, picking: bool, stealing: bool, computers: frozenset[int]) -> str:
    final = state.view.get("final") if state.view else None
    if state.status == GameStatus.FINISHED and final and state.view:
        winners = [state.players[s] for s in final["winners"]]
        best = final["scores"][final["winners"][0]]
        if state.view.get("variant") == "saboteur2":
            return ngettext("The game is over: %(winners)s won with %(num)d gold piece.",
                            "The game is over: %(winners)s won with %(num)d gold pieces.", best,
                            winners=join_words(winners))
        return ngettext("The game is over: %(winners)s won with %(num)d nugget.",
                        "The game is over: %(winners)s won with %(num)d nuggets.", best, winners=join_words(winners))
    if state.status != GameStatus.ACTIVE:
        return gettext("The game is over.")
    if state.paused:
        return gettext("The host has paused this game.")
    if state.to_act is None:
        return gettext("Waiting for the game to go on.")
    if state.to_act == seat:
        if stealing:
            return gettext("Your Theft: steal 1 gold piece, or let it go.")
        if picking:
            return gettext("Your turn: choose a gold card.")
        return pgettext("headline", "Your turn: play a card, or pass.")  # one line on a phone
    name = state.players[state.to_act]
    if state.to_act in computers:
        return gettext("%(name)s's turn (computer player).", name=name)
    return gettext("%(name)s's turn.", name=name)


def _inert_reason(state: GameState, computers: frozenset[int]) -> str:
    """Why this seat's hand cannot be played now, in one sentence."""
    if state.status != GameStatus.ACTIVE:
        return gettext("The game is over: nothing more can be played.")
    if state.paused:
        return gettext("The host has paused this game: nothing can be played until it goes on.")
    if state.to_act is None:
        return gettext("Waiting for the game to go on.")
    name = state.players[state.to_act]
    if state.to_act in computers:
        return gettext("It is %(name)s's turn (computer player): your cards wake up when it is yours.", name=name)
    return gettext("It is %(name)s's turn: your cards wake up when it is yours.", name=name)


def _warning_window(policies: dict[str, Any]) -> timedelta:
    """How long before a deadline its warning goes out: from then on the deadline is shown as close."""
    return timedelta(hours=float(policy(policies, "warning_hours") or 0))


def _gold_story(view: Mapping[str, Any], names: Sequence[str]) -> str:
    """Why there is gold to pick: the round just won by the gold-diggers."""
    results = view.get("results") or []
    reached = results[-1].get("reached_by") if results else None
    if reached is None:
        return gettext("The gold-diggers found the gold.")
    return gettext("%(name)s reached the gold: the gold-diggers share it.", name=names[reached])


def _peeks(view: Mapping[str, Any]) -> list[str]:
    goals = goal_names(view)
    lines = []
    for peek in (view.get("you") or {}).get("peeks", []):
        place = goals.get((peek["x"], peek["y"])) or gettext("goal")
        lines.append(gettext("The %(place)s goal: gold", place=place) if peek["gold"]
                     else gettext("The %(place)s goal: stone", place=place))
    return lines


def _log_entry(entry: HistoryEntry, names: Sequence[str], zone_name: str) -> LogEntry:
    actor = entry.actor_name
    if actor is None and entry.actor is not None and 0 <= entry.actor < len(names):
        actor = names[entry.actor]
    return LogEntry(seq=entry.seq, when=local_time(entry.created_at, zone_name), actor=actor, lines=list(entry.lines))


def _round_result(result: engine.RoundResult, names: Sequence[str]) -> RoundResult:
    if "payouts" in result:  # Saboteur 2: teams, doors, payouts and thefts
        return RoundResult(
            round=result["round"],
            summary=outcome(result, names),
            roles=[(names[index], role_title(role)) for index, role in enumerate(result["roles"])],
            share=share_line(result),
            payouts=[payout_line(pay, result, names) for pay in result["payouts"]] or [gettext("Nobody was paid.")],
            thefts=[theft_line(theft, names) for theft in result["thefts"]],
            final_view=result.get("final_board"),
        )
    roles = [(names[index], role_title(role)) for index, role in enumerate(result["roles"])]
    return RoundResult(
        round=result["round"],
        summary=outcome(result, names),
        roles=roles,
        final_view=result.get("final_board"),
    )


def _final(view: Mapping[str, Any], names: Sequence[str]) -> list[tuple[str, int, bool]] | None:
    final = view.get("final")
    if not final:
        return None
    ranked = sorted(range(len(names)), key=lambda seat: -final["scores"][seat])
    return [(names[seat], final["scores"][seat], seat in final["winners"]) for seat in ranked]
