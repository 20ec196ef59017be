"""A model of the whole service: a Hypothesis state machine that drives the service layer as the web and the
scheduler call it (moves, time passing, every host action, every seat and player setting, table talk,
spectators, sign-in requests) and checks after every step the promises pages and emails make.

`tests/test_service_model.py` runs it briefly in `make test` and at length under `-m exhaustive`.
"""

from __future__ import annotations

import dataclasses
import json
import random
import shutil
from collections import Counter
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from sqlalchemy import select

import engine
from pbem.addresses import mailbox_key
from pbem.chance import SeededChance
from pbem.clock import SettableClock
from pbem.config import Config
from pbem.errors import PbemError
from pbem.models import Game, OutboxMessage, Snapshot, TurnClock
from pbem.runtime import Runtime, build_runtime
from pbem.service.host.host_access import HostSession
from pbem.service.host.invites import InviteSettings
from pbem.service.players.access import Player
from pbem.service.players.preferences import FIELDS, Preferences
from pbem.service.turns.games import PlayerSpec
from pbem.times import format_when
from tests.support.database import START
from tests.support.twins import cards_of_finished_rounds, hidden_cards, json_cards

HOST = HostSession(email="host@example.org", is_admin=False)
PEOPLE = ("Ann", "Ben", "Cat")
NEWCOMERS = ("Dan", "Eve", "Fay", "Gus", "Hal", "Ivy")
ZONES = ("UTC", "Asia/Tokyo", "America/Los_Angeles", "Europe/Berlin")
QUIET = (None, "", "22:00-08:00", "01:00-09:30", "13:00-20:00")
SEATS = st.sampled_from([None, None, 0, 1, 2])  # None: whoever is to act
# Emails that state the pending turn's deadline, and how each words it.
DEADLINE_KINDS = ("turn_reminder", "nudge", "deadline_warning")
# Mail a stranger can make the server send, and how many a mailbox may receive of each in a day.
STRANGER_MAIL_PER_DAY = {"player_sign_in": 3 * 24, "join_confirm": 3}


@dataclasses.dataclass
class Move:
    seq: int
    seat: int
    name: str  # who held the seat when the move was made


class ServiceModel(RuleBasedStateMachine):
    """One game of three people, with whatever happens to games in play."""

    config: Config
    workdir: Path
    template: Path
    examples = 0

    def __init__(self) -> None:
        super().__init__()
        type(self).examples += 1
        path = self.workdir / f"model-{type(self).examples}.sqlite3"
        shutil.copyfile(self.template, path)
        self.clock = SettableClock(START)
        self.runtime: Runtime = build_runtime(
            dataclasses.replace(self.config, database_url=f"sqlite:///{path}"),
            clock=self.clock, chance=SeededChance(type(self).examples),
        )
        self.rng = random.Random(type(self).examples)
        self.moves: list[Move] = []
        self.names = list(PEOPLE)
        self.emails = [f"{name.lower()}@example.org" for name in PEOPLE]
        self.newcomers = list(NEWCOMERS)
        self.spectator_tokens: list[str] = []
        self.invite_link = ""
        self.game_id = ""

    def teardown(self) -> None:
        self.runtime.close()

    # -- the game --------------------------------------------------------------------------------

    @initialize()
    def a_game_starts(self) -> None:
        self.game_id = self.runtime.games.create_game(
            title="Model mine", players=[PlayerSpec(name, email) for name, email in zip(self.names, self.emails,
                                                                                       strict=True)],
            host_email=HOST.email,
        )
        self.runtime.games.start_game(self.game_id)

    def running(self) -> bool:
        return self.runtime.games.current_state(self.game_id).status == "active"

    def to_act(self) -> int | None:
        state = self.runtime.games.current_state(self.game_id)
        return state.to_act if state.status == "active" else None

    @precondition(lambda self: self.to_act() is not None)
    @rule()
    def the_player_to_act_moves(self) -> None:
        state, seq = self.runtime.games.engine_state(self.game_id)
        seat = engine.to_act(state)
        assert seat is not None
        move = engine.bots.choose(state, seat, self.rng)
        self.expect_refusals(lambda: self.runtime.games.submit_move(self.game_id, seat, move, seq, f"m{seq}"))
        if self.current_seq() == seq + 1:
            self.moves.append(Move(seq + 1, seat, self.names[seat]))

    @rule(hours=st.sampled_from([1, 5, 13, 24, 49]))
    def time_passes(self, hours: int) -> None:
        """The scheduler's sweep and the mail worker run as time goes by."""
        before = self.current_seq()
        self.clock.advance(timedelta(hours=hours))
        self.runtime.sweep.run()
        self.note_moves_made_by_timeouts(before)

    def note_moves_made_by_timeouts(self, before: int) -> None:
        with self.runtime.db.read() as session:
            game = session.scalars(select(Game).where(Game.public_id == self.game_id)).one()
            rows = session.execute(
                select(Snapshot.seq, Snapshot.actor_seat).where(Snapshot.game_id == game.id, Snapshot.seq > before)
                .order_by(Snapshot.seq)
            ).all()
        for seq, actor in rows:
            if actor is not None:
                self.moves.append(Move(seq, actor, self.names[actor]))

    # -- the host ----------------------------------------------------------------------------------

    @rule()
    def the_host_pauses_or_resumes(self) -> None:
        controls = self.runtime.turn_controls
        paused = self.runtime.games.current_state(self.game_id).paused
        action = controls.resume if paused else controls.pause
        self.expect_refusals(lambda: action(self.game_id, actor_email=HOST.email))

    @rule(hours=st.integers(min_value=1, max_value=48))
    def the_host_extends_the_deadline(self, hours: int) -> None:
        self.expect_refusals(
            lambda: self.runtime.turn_controls.extend_deadline(self.game_id, hours, actor_email=HOST.email)
        )

    @rule(note=st.sampled_from(["", "Your move!"]))
    def the_host_nudges(self, note: str) -> None:
        seat = self.to_act()
        if seat is not None:
            self.expect_refusals(
                lambda: self.runtime.turn_controls.nudge(self.game_id, seat, actor_email=HOST.email, note=note)
            )

    @rule()
    def the_host_skips_the_turn(self) -> None:
        before = self.current_seq()
        self.expect_refusals(lambda: self.runtime.turn_controls.skip(self.game_id, actor_email=HOST.email))
        self.note_moves_made_by_timeouts(before)

    @precondition(lambda self: self.newcomers)
    @rule(seat=st.integers(min_value=0, max_value=2))
    def the_host_replaces_a_player(self, seat: int) -> None:
        name = self.newcomers[0]
        email = f"{name.lower()}@example.org"
        try:
            self.runtime.moderation.replace_player(self.game_id, seat, name, email, host=HOST)
        except PbemError:
            return
        self.newcomers.pop(0)
        self.names[seat], self.emails[seat] = name, email

    @rule(back=st.integers(min_value=1, max_value=3))
    def the_host_rolls_back(self, back: int) -> None:
        seq = self.current_seq()
        try:
            self.runtime.moderation.rollback(self.game_id, max(seq - back, 0), "A mistake", host=HOST)
        except PbemError:
            return

    @precondition(lambda self: len(self.moves) > 12)
    @rule()
    def the_host_ends_the_game(self) -> None:
        self.expect_refusals(lambda: self.runtime.moderation.end_game(self.game_id, host=HOST))

    @precondition(lambda self: len(self.spectator_tokens) < 2)
    @rule()
    def the_host_opens_a_spectator_link(self) -> None:
        try:
            token = self.runtime.spectators.create(self.game_id, show_chat=True, actor_email=HOST.email)
        except PbemError:
            return
        self.spectator_tokens.append(token.rsplit("/", 1)[-1])

    # -- the players -------------------------------------------------------------------------------

    @rule(who=SEATS, zone=st.sampled_from(ZONES), quiet=st.sampled_from(QUIET))
    def a_player_sets_their_clock_on_the_turn_page(self, who: int | None, zone: str, quiet: str | None) -> None:
        seat = self.seat_of(who)
        before = self.pending_deadline(seat)
        self.expect_refusals(lambda: self.runtime.presence.set_timing(
            self.game_id, seat, timezone_name=zone, quiet_hours=quiet))
        self.assert_not_earlier(seat, before)

    @rule(who=SEATS, zone=st.sampled_from(ZONES), quiet=st.sampled_from(QUIET),
          mode=st.sampled_from(["turn", "daily"]), fields=st.sets(st.sampled_from(FIELDS), min_size=1))
    def a_player_saves_preferences_in_my_games(
        self, who: int | None, zone: str, quiet: str | None, mode: str, fields: set[str],
    ) -> None:
        seat = self.seat_of(who)
        email = self.emails[seat]
        player = Player(email=email, mailbox=mailbox_key(email))
        before = self.pending_deadline(seat)
        wanted = Preferences(timezone=zone, quiet_hours=quiet, notify_mode=mode)
        self.expect_refusals(lambda: self.runtime.player_home.set_preferences(player, wanted, fields))
        self.assert_not_earlier(seat, before)

    @rule(seat=st.integers(min_value=0, max_value=2), days=st.sampled_from([None, 1, 3]))
    def a_player_is_away_or_back(self, seat: int, days: int | None) -> None:
        if days is None:
            self.expect_refusals(lambda: self.runtime.presence.come_back(self.game_id, seat))
            return
        local = (self.clock.now() + timedelta(days=days)).date()
        self.expect_refusals(lambda: self.runtime.presence.set_away(self.game_id, seat, date.fromordinal(
            local.toordinal())))

    @rule(seat=st.integers(min_value=0, max_value=2), mode=st.sampled_from(["turn", "digest"]),
          hand=st.booleans())
    def a_player_chooses_their_emails(self, seat: int, mode: str, hand: bool) -> None:
        self.expect_refusals(lambda: self.runtime.seats.set_notify_mode(self.game_id, seat, mode))
        self.expect_refusals(lambda: self.runtime.seats.set_hand_in_email(self.game_id, seat, hand))

    @rule(seat=st.integers(min_value=0, max_value=2), text=st.sampled_from(["Watch the left goal", "gg"]))
    def a_player_talks(self, seat: int, text: str) -> None:
        self.expect_refusals(lambda: self.runtime.chat.post(self.game_id, seat, text))

    @precondition(lambda self: not self.invite_link)
    @rule()
    def the_host_shares_an_invite_link(self) -> None:
        invites = self.runtime.invites
        invite_id = invites.create(HOST, InviteSettings(
            title="Open mine", variant="base", options=None, policies={}, places=4, bots=0, seat_order="joined",
            auto_start=False, players_may_rematch=False, host_name=None,
        ))
        self.invite_link = invites.detail(invite_id, HOST).link.rsplit("/", 1)[-1]

    @precondition(lambda self: self.invite_link)
    @rule(who=st.sampled_from(["victim@example.org", "Victim+x@example.org", "ann@example.org"]),
          clients=st.lists(st.sampled_from([f"198.51.100.{n}" for n in range(1, 65)]), min_size=1, max_size=8))
    def a_stranger_joins_with_someone_s_address(self, who: str, clients: list[str]) -> None:
        """A burst of joins with one address from many clients, as a script would send them."""
        for client in clients:
            self.expect_refusals(lambda client=client: self.runtime.invites.join(
                self.invite_link, "Mallory", who, "UTC", client))

    @rule(who=st.sampled_from(["ann@example.org", "ben@example.org", "stranger@example.org"]))
    def someone_asks_for_a_sign_in_link(self, who: str) -> None:
        self.runtime.player_access.request_link(who, "198.51.100.7")

    # -- helpers -----------------------------------------------------------------------------------

    def seat_of(self, who: int | None) -> int:
        """`who`, or (None) the seat to act, else the first."""
        return who if who is not None else (self.to_act() or 0)

    def expect_refusals(self, action: Any) -> None:
        """Run `action`; a refusal the web layer turns into a page (a PbemError) is fine, anything else is not."""
        try:
            action()
        except PbemError:
            pass

    def current_seq(self) -> int:
        seq = self.runtime.games.current_state(self.game_id).seq
        return seq if seq is not None else 0

    def clock_row(self) -> TurnClock | None:
        with self.runtime.db.read() as session:
            game = session.scalars(select(Game).where(Game.public_id == self.game_id)).one()
            clock = session.get(TurnClock, game.id)
            if clock is None or clock.seq != game.current_seq or game.status != "active":
                return None
            return clock

    def pending_deadline(self, seat: int) -> tuple[int, datetime] | None:
        clock = self.clock_row()
        if clock is None or clock.seat != seat or clock.deadline_at is None:
            return None
        return clock.seq, clock.deadline_at

    def assert_not_earlier(self, seat: int, before: tuple[int, datetime] | None) -> None:
        after = self.pending_deadline(seat)
        if before is not None and after is not None and before[0] == after[0]:
            assert after[1] >= before[1], f"{self.names[seat]}'s own settings moved the deadline earlier"

    # -- what must always hold ---------------------------------------------------------------------

    @invariant()
    def every_deadline_shown_is_the_stored_one(self) -> None:
        clock = self.clock_row()
        state = self.runtime.games.current_state(self.game_id)
        stored = clock.deadline_at if clock is not None and not state.paused else None
        seat = clock.seat if clock is not None else None
        if seat is None:
            return
        profile = self.runtime.seats.profile(self.game_id, seat)
        assert profile.deadline_at == stored, "the turn page shows another deadline"
        email = self.emails[seat]
        mine = [entry for entry in self.runtime.player_home.my_games(Player(email, mailbox_key(email)))
                if entry.title == "Model mine"]
        assert [entry.deadline for entry in mine] == [stored], "My games shows another deadline"
        row = self.runtime.hosting.detail(self.game_id, HOST).row
        assert row.deadline == stored, "the host page shows another deadline"

    @invariant()
    def every_history_line_names_who_made_the_move_then(self) -> None:
        made = {move.seq: move.name for move in self.moves}
        for entry in self.runtime.games.history(self.game_id, None):
            if entry.seq in made and entry.actor is not None:
                assert entry.actor_name == made[entry.seq], (
                    f"move {entry.seq} was {made[entry.seq]}'s, the log says {entry.actor_name}"
                )

    @invariant()
    def mail_goes_out_once_and_tells_the_stored_deadline(self) -> None:
        """The mail worker runs (it sends within seconds): nothing queued and due stays behind, nothing is sent
        twice, and an email sent now about the pending turn gives the deadline in force."""
        with self.runtime.db.read() as session:
            sent_before = set(session.scalars(select(OutboxMessage.id).where(OutboxMessage.status == "sent")))
        self.runtime.deliverer().run()
        now = self.clock.now()
        with self.runtime.db.read() as session:
            rows = session.scalars(select(OutboxMessage)).all()
            game = session.scalars(select(Game).where(Game.public_id == self.game_id)).one()
            clock = session.get(TurnClock, game.id)
            seats = {seat.seat_index: seat for seat in game.seats}
            paused = game.paused
        assert all(row.status in ("queued", "sent", "dropped") for row in rows), "an email is stuck or failed"
        assert not [row for row in rows if row.status == "queued" and row.next_attempt_at <= now], "an email is lost"
        assert len({row.message_id for row in rows}) == len(rows)
        if clock is None or clock.seat is None or clock.deadline_at is None or paused:
            return
        acting = seats[clock.seat]
        told = format_when(clock.deadline_at, acting.timezone)
        for row in rows:
            fresh = row.id not in sent_before and row.status == "sent"
            if fresh and row.seat_id == acting.id and row.kind in DEADLINE_KINDS and row.game_seq == clock.seq:
                text = " ".join((row.body_text or "").split())  # a text part may wrap the date across lines
                assert told in text, f"a {row.kind} email gives another deadline than {told}"

    @invariant()
    def no_mailbox_gets_more_than_the_limits_allow(self) -> None:
        with self.runtime.db.read() as session:
            rows = session.execute(select(OutboxMessage.to_address, OutboxMessage.kind, OutboxMessage.created_at)
                                   .where(OutboxMessage.kind.in_(tuple(STRANGER_MAIL_PER_DAY)))).all()
        per_day = Counter((mailbox_key(address), kind, created.date()) for address, kind, created in rows)
        for (mailbox, kind, day), count in per_day.items():
            assert count <= STRANGER_MAIL_PER_DAY[kind], f"{mailbox} got {count} {kind} emails on {day}"
        hourly = Counter((mailbox_key(address), kind, created.replace(minute=0, second=0, microsecond=0))
                         for address, kind, created in rows if kind == "player_sign_in")
        assert all(count <= 3 for count in hourly.values()), "a mailbox got more than 3 sign-in links in an hour"

    @invariant()
    def no_one_is_shown_a_card_they_may_not_see(self) -> None:
        state, _ = self.runtime.games.engine_state(self.game_id)
        for seat in range(len(PEOPLE)):
            seen = self.runtime.games.current_state(self.game_id, seat)
            data = {"view": seen.view, "moves": seen.legal_moves}
            shown = set(json_cards(data)) - cards_of_finished_rounds(data)
            assert not shown & hidden_cards(state, seat), f"seat {seat} is shown a card it may not see"
        for token in self.spectator_tokens:
            try:
                view = self.runtime.spectators.view(token)
            except PbemError:
                continue
            data = {"view": view.state.view}
            shown = set(json_cards(json.loads(json.dumps(data, default=str)))) - cards_of_finished_rounds(data)
            assert not shown & set().union(*state.hands, state.draw_pile), "a spectator is shown a hidden card"
