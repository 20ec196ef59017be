"""A model of the whole service: a Hypothesis state machine that drives the service layer as the web and the
scheduler call it (moves, time passing, every host action, every seat and player setting, table talk,
spectators and their round-end emails, rematches, games joined by invite, sign-in requests) and checks after
every step the promises pages and emails make.

It follows every game it sees start (the first, its rematches, the games of invites), and acts on one at a time,
the one the people at hand look at (a rematch or an invite's game draws them; a rule turns them back).
`tests/model/test_service_model.py` runs it briefly in `make test` and at length under `-m exhaustive`.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections import Counter
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from flask import Flask
from hypothesis import event
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from sqlalchemy import select

import engine
from pbem import create_app
from pbem.addresses import mailbox_key
from pbem.chance import SeededChance
from pbem.clock import SettableClock
from pbem.config import Config
from pbem.errors import BadLink, InviteUnavailable, PbemError
from pbem.models import Game, Invite, OutboxMessage, Rematch, Seat, Snapshot, TurnClock
from pbem.runtime import Runtime
from pbem.service.host.host_access import HostSession
from pbem.service.host.invites import InviteSettings
from pbem.service.players.access import Player
from pbem.service.players.preferences import FIELDS, Preferences
from pbem.service.seats.fresh_links import FreshLink
from pbem.service.sign_in import LinkRequest
from pbem.service.turns.values import PlayerSpec
from pbem.times import format_when
from pbem.web.app_context import EXTENSION_KEY
from tests.support.database import START
from tests.support.games import dig_for_gold
from tests.support.model_twins import TwinCheck, copy_database
from tests.support.twins import cards_of_finished_rounds, hidden_cards, json_cards
from tests.support.web import COMPILED_TEMPLATES, post, with_csrf

HOST = HostSession(email="host@example.org", is_admin=False)
PEOPLE = ("Ann", "Ben", "Cat")
NEWCOMERS = ("Dan", "Eve", "Fay", "Gus", "Hal", "Ivy")
# People who join games by the host's shared link, each with an address of their own (more than a game's places:
# a stranger's joins may use up a day's confirmation emails of two of them).
JOINERS = ("Jo", "Kim", "Lee", "Mo", "Ned", "Oz")
ZONES = ("UTC", "Asia/Tokyo", "America/Los_Angeles", "Europe/Berlin")
QUIET = (None, "", "22:00-08:00", "01:00-09:30", "13:00-20:00")
SEATS = st.sampled_from([None, None, 0, 1, 2])  # None: whoever is to act
# Emails that state the pending turn's deadline, and how each words it.
DEADLINE_KINDS = ("turn_reminder", "nudge", "deadline_warning")
# Mail anyone can make the server send, and how many a mailbox may receive of each in a day.
STRANGER_MAIL_PER_DAY = {"player_sign_in": 3 * 24, "join_confirm": 3, "spectator_confirm": 3}
# Addresses a stranger types: a victim (two spellings of one mailbox), a player, and joiners still confirming.
STRANGER_TARGETS = ("victim@example.org", "Victim+x@example.org", "ann@example.org", "jo@example.org",
                    "Kim+spam@example.org")
# An invite's places and computer players: some games can start with a place left (the variant takes three).
PLACES = st.sampled_from([3, 4, 4, 5])
BOTS = st.sampled_from([0, 0, 1])
FANS = ("fan@example.org", "Fan+saboteur@example.org", "victim@example.org")
CONFIRM_LINK = re.compile(r"https?://\S+/join/confirm/(\S+)")
SPECTATOR_CONFIRM_LINK = re.compile(r"https?://\S+/watch/confirm/(\S+)")
SPECTATOR_STOP_LINK = re.compile(r"https?://\S+/watch/stop/(\S+)")
TWIN_EVERY = 8  # steps between twin checks (and one at each example's end)


def address_of(name: str) -> str:
    return f"{name.lower()}@example.org"


@dataclasses.dataclass
class Move:
    seq: int
    seat: int
    name: str  # who held the seat when the move was made


@dataclasses.dataclass
class Table:
    """One game the model follows, and who holds its seats as the model knows it."""

    game_id: str
    title: str
    names: list[str]
    emails: list[str | None]
    moves: list[Move] = dataclasses.field(default_factory=list)
    rounds_over: int = 0  # the round results seen so far (spectators are emailed at each)
    spectators: list[str] = dataclasses.field(default_factory=list)  # spectator link tokens


@dataclasses.dataclass
class Letter:
    """A link read out of an email, as its recipient's mail program shows it."""

    token: str
    sent_at: datetime


@dataclasses.dataclass
class InviteRun:
    """A game joined by the host's shared link, from the model's side."""

    invite_id: str
    title: str
    link: str  # the shared link's token
    auto_start: bool
    names: dict[int, str] = dataclasses.field(default_factory=dict)  # joiner row id: the name it joined with
    letters: dict[str, list[Letter]] = dataclasses.field(default_factory=dict)  # mailbox: its confirmation links
    told_confirmed: set[str] = dataclasses.field(default_factory=set)  # mailboxes told "your place is confirmed"
    pages: dict[str, Letter] = dataclasses.field(default_factory=dict)  # mailbox: its confirmation page left open
    game_id: str | None = None
    seated: set[str] = dataclasses.field(default_factory=set)  # the mailboxes its game started with


class ServiceModel(RuleBasedStateMachine):
    """Three people's game, with whatever happens to games in play, and the games that follow it."""

    config: Config
    workdir: Path
    template: Path
    examples = 0

    def __init__(self) -> None:
        super().__init__()
        type(self).examples += 1
        self.path = self.workdir / f"model-{type(self).examples}.sqlite3"
        self.clock = SettableClock(START)
        self.twins = TwinCheck(self.config, self.path, self.workdir, self.clock)
        self.tables: dict[str, Table] = {}
        self.game_id = ""
        self.newcomers = list(NEWCOMERS)
        self.invite: InviteRun | None = None
        self.invites: list[InviteRun] = []
        self.subscribers: dict[tuple[str, str], bool] = {}  # (spectator token, mailbox): emailed at round ends
        self.fans: dict[str, list[Letter]] = {}  # mailbox: its confirmation links for round-end emails
        self.stops: dict[str, list[Letter]] = {}  # mailbox: the stop links of its round-end emails
        self.steps = 0

    def teardown(self) -> None:
        if not hasattr(self, "runtime"):
            return
        try:
            if self.steps:
                self.check_the_twins()
        finally:
            self.runtime.close()

    # -- the game --------------------------------------------------------------------------------

    @property
    def table(self) -> Table:
        return self.tables[self.game_id]

    @initialize(seed=st.integers(min_value=0, max_value=2**16), players_may_rematch=st.booleans())
    def a_game_starts(self, seed: int, players_may_rematch: bool) -> None:
        """The server starts (its deals and computer players drawn from `seed`, so that an example replays the
        same), and the host creates a game from the form, as the web does."""
        copy_database(self.template, self.path)
        self.app: Flask = create_app(
            dataclasses.replace(self.config, database_url=f"sqlite:///{self.path}"),
            clock=self.clock, chance=SeededChance(seed),
        )
        self.app.testing = True
        self.app.jinja_env.bytecode_cache = COMPILED_TEMPLATES
        self.runtime: Runtime = self.app.extensions[EXTENSION_KEY]
        self.rng = random.Random(seed)
        emails = [address_of(name) for name in PEOPLE]
        game_id = self.runtime.hosting.create_and_start(
            host=HOST, title="Model mine", players=[PlayerSpec(name, email) for name, email in zip(
                PEOPLE, emails, strict=True)],
            variant="base", options=None, policies={}, client="192.0.2.1", players_may_rematch=players_may_rematch,
        )
        self.follow(game_id)

    def follow(self, game_id: str) -> Table:
        """A game the model has just seen start: it follows it from now on, and looks at it."""
        if game_id not in self.tables:
            seats = self.runtime.games.invites(game_id)
            self.tables[game_id] = Table(game_id, self.runtime.games.current_state(game_id).title,
                                         [seat.name for seat in seats], [seat.email for seat in seats])
        self.game_id = game_id
        return self.tables[game_id]

    def running(self) -> bool:
        return self.runtime.games.current_state(self.game_id).status == "active"

    def to_act(self) -> int | None:
        state = self.runtime.games.current_state(self.game_id)
        return state.to_act if state.status == "active" else None

    @precondition(lambda self: self.to_act() is not None)
    @rule()
    def the_player_to_act_moves(self) -> None:
        self.play(engine.bots.choose)

    @precondition(lambda self: self.to_act() is not None)
    @rule(moves=st.sampled_from([10, 40, 400]))
    def the_table_plays_on(self, moves: int) -> None:
        """An evening's play between two looks: moves that dig for the gold, up to the game's end."""
        for _ in range(moves):
            if self.to_act() is None:
                return
            self.play(dig_for_gold)

    more_of_the_table_plays_on = the_table_plays_on  # (weighted twice: a rematch needs a game that is over)

    def play(self, choose: Any) -> None:
        state, seq = self.runtime.games.engine_state(self.game_id)
        seat = engine.to_act(state)
        assert seat is not None
        move = choose(state, seat, self.rng)
        self.expect_refusals(lambda: self.runtime.games.submit_move(self.game_id, seat, move, seq, f"m{seq}"))
        if self.current_seq() == seq + 1:
            self.table.moves.append(Move(seq + 1, seat, self.table.names[seat]))

    @rule(hours=st.sampled_from([1, 5, 13, 24, 49]))
    def time_passes(self, hours: int) -> None:
        """The scheduler's sweep and the mail worker run as time goes by."""
        before = {game_id: self.current_seq(game_id) for game_id in self.tables}
        self.clock.advance(timedelta(hours=hours))
        self.runtime.sweep.run()
        for game_id, seq in before.items():
            self.note_moves_made_by_timeouts(game_id, seq)

    def note_moves_made_by_timeouts(self, game_id: str, before: int) -> None:
        table = self.tables[game_id]
        with self.runtime.db.read() as session:
            game = session.scalars(select(Game).where(Game.public_id == game_id)).one()
            rows = session.execute(
                select(Snapshot.seq, Snapshot.actor_seat).where(Snapshot.game_id == game.id, Snapshot.seq > before)
                .order_by(Snapshot.seq)
            ).all()
        for seq, actor in rows:
            if actor is not None:
                table.moves.append(Move(seq, actor, table.names[actor]))

    @precondition(lambda self: len(self.tables) > 1)
    @rule(data=st.data())
    def the_people_turn_to_another_of_their_games(self, data: st.DataObject) -> None:
        self.game_id = data.draw(st.sampled_from(list(self.tables)))  # (in the order they started)

    # -- the host ----------------------------------------------------------------------------------

    @rule()
    def the_host_pauses_or_resumes(self) -> None:
        actions = self.runtime.host_actions
        paused = self.runtime.games.current_state(self.game_id).paused
        action = actions.resume if paused else actions.pause
        self.expect_refusals(lambda: action(self.game_id, HOST))

    @rule(hours=st.integers(min_value=1, max_value=48))
    def the_host_extends_the_deadline(self, hours: int) -> None:
        self.expect_refusals(lambda: self.runtime.host_actions.extend_deadline(self.game_id, hours, HOST))

    @rule(note=st.sampled_from(["", "Your move!"]))
    def the_host_nudges(self, note: str) -> None:
        seat = self.to_act()
        if seat is not None:
            self.expect_refusals(lambda: self.runtime.host_actions.nudge(self.game_id, seat, note, HOST))

    @rule()
    def the_host_skips_the_turn(self) -> None:
        before = self.current_seq()
        self.expect_refusals(lambda: self.runtime.host_actions.skip(self.game_id, HOST))
        self.note_moves_made_by_timeouts(self.game_id, before)

    @precondition(lambda self: self.newcomers)
    @rule(seat=st.integers(min_value=0, max_value=2), in_a_rematch=st.booleans(), data=st.data())
    def the_host_replaces_a_player(self, seat: int, in_a_rematch: bool, data: st.DataObject) -> None:
        """In the game in view, or (`in_a_rematch`) on the page of one of the rematches, which the host then
        looks at."""
        rematches = self.rematch_tables() if in_a_rematch else []
        if rematches:
            self.game_id = data.draw(st.sampled_from(rematches)).game_id
        name = self.newcomers[0]
        email = address_of(name)
        if seat >= len(self.table.names):
            return
        try:
            self.runtime.moderation.replace_player(self.game_id, seat, name, email, host=HOST)
        except PbemError:
            return
        self.newcomers.pop(0)
        self.table.names[seat], self.table.emails[seat] = name, email
        if rematches:
            event("the host replaced a player in a rematch")

    more_of_the_host_replaces_a_player = the_host_replaces_a_player  # (weighted twice, as the rematch's rules)

    @rule(back=st.integers(min_value=1, max_value=3))
    def the_host_rolls_back(self, back: int) -> None:
        seq = self.current_seq()
        self.expect_refusals(
            lambda: self.runtime.moderation.rollback(self.game_id, max(seq - back, 0), "A mistake", host=HOST))

    @precondition(lambda self: len(self.table.moves) > 6)
    @rule()
    def the_host_ends_the_game(self) -> None:
        self.expect_refusals(lambda: self.runtime.moderation.end_game(self.game_id, host=HOST))

    more_of_the_host_ends_the_game = the_host_ends_the_game  # (weighted twice, as the evening's play)

    @precondition(lambda self: len(self.table.spectators) < 2)
    @rule(show_chat=st.booleans())
    def the_host_opens_a_spectator_link(self, show_chat: bool) -> None:
        try:
            url = self.runtime.spectators.create(self.game_id, show_chat=show_chat, actor_email=HOST.email)
        except PbemError:
            return
        self.table.spectators.append(url.rsplit("/", 1)[-1])

    @precondition(lambda self: self.table.spectators)
    @rule(data=st.data())
    def the_host_revokes_a_spectator_link(self, data: st.DataObject) -> None:
        links = self.runtime.spectators.links(self.game_id)
        live = [link for link in links if link.revoked_at is None]
        if not live:
            return
        link = data.draw(st.sampled_from(live))
        assert self.runtime.spectators.revoke(self.game_id, link.id, actor_email=HOST.email)
        token = link.url.rsplit("/", 1)[-1]
        for key in self.subscribers:
            if key[0] == token:
                self.subscribers[key] = False

    @rule(allowed=st.booleans(), data=st.data())
    def the_host_lets_players_start_the_rematch(self, allowed: bool, data: st.DataObject) -> None:
        """The tick on the page of any of the host's games, running or over."""
        game_id = data.draw(st.sampled_from(list(self.tables)))
        self.expect_refusals(lambda: self.runtime.host_actions.allow_player_rematch(game_id, allowed, HOST))

    @precondition(lambda self: self.finished_tables())
    @rule(order=st.sampled_from(["rotated", "shuffled"]), data=st.data())
    def the_host_starts_a_rematch(self, order: str, data: st.DataObject) -> None:
        previous = data.draw(st.sampled_from(self.finished_tables()))
        before = self.runtime.rematches.lineage(previous.game_id).next
        new_id = self.runtime.host_actions.rematch(previous.game_id, order, HOST)
        assert before in (None, new_id), "a second rematch of one game"
        assert self.runtime.rematches.lineage(previous.game_id).next == new_id, "the game leads to another rematch"
        fresh = new_id not in self.tables
        event("the host started a rematch" if fresh else "the host asked again for a rematch")
        table = self.follow(new_id)
        if fresh:
            seated = sorted(mailbox_key(email) for email in table.emails if email)
            assert seated == sorted(mailbox_key(email) for email in previous.emails if email), (
                "the rematch seats other people than those who held the last game's seats")

    @precondition(lambda self: self.finished_tables())
    @rule(seats=st.lists(st.integers(min_value=0, max_value=2), min_size=1, max_size=3, unique=True),
          data=st.data())
    def players_ask_for_the_rematch_on_the_game_over_page(self, seats: list[int], data: st.DataObject) -> None:
        """The game-over page's button, pressed by one player after another (the rematch may exist already, and
        the host may have given someone's place in it to another)."""
        previous = data.draw(st.sampled_from(self.finished_tables()))
        for seat in seats:
            self.a_player_asks_for_the_rematch(previous, seat)

    more_players_ask_for_the_rematch_on_the_game_over_page = players_ask_for_the_rematch_on_the_game_over_page
    more_the_host_starts_a_rematch = the_host_starts_a_rematch

    def a_player_asks_for_the_rematch(self, previous: Table, seat: int) -> None:
        """The button, through the web as a browser sends it: the player goes to their seat in the rematch, or is
        told it goes on without them, or that the host starts it."""
        if seat >= len(previous.names) or previous.emails[seat] is None:
            return
        token = self.runtime.games.invites(previous.game_id)[seat].link.rsplit("/", 1)[-1]
        client = self.app.test_client()
        with_csrf(client)
        response = post(client, f"/play/{token}/rematch")
        event(f"a player's rematch button answered {response.status_code}")
        assert response.status_code in (200, 303, 403), f"the rematch button answers {response.status_code}"
        if response.status_code == 403:
            return
        new_id = self.runtime.rematches.lineage(previous.game_id).next
        assert new_id is not None, "the rematch button answered, and no rematch started"
        table = self.follow(new_id)
        asker = mailbox_key(previous.emails[seat] or "")
        seated = [index for index, email in enumerate(table.emails) if email and mailbox_key(email) == asker]
        if response.status_code == 303:
            assert seated, "a player is sent to a rematch they have no seat in"
        else:
            assert not seated, "a player with a seat in the rematch is told it goes on without them"
            event("a player was told the rematch goes on without them")

    def rematch_tables(self) -> list[Table]:
        """The games followed that are the rematch of another."""
        return [table for table in self.tables.values()
                if self.runtime.rematches.lineage(table.game_id).previous is not None]

    def finished_tables(self) -> list[Table]:
        return [table for table in self.tables.values()
                if self.runtime.games.current_state(table.game_id).status == "finished"]

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
        email = self.table.emails[seat]
        if email is None:
            return
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

    @rule(seat=st.integers(min_value=0, max_value=2), data=st.data())
    def someone_asks_for_a_fresh_link_with_an_old_one(self, seat: int, data: st.DataObject) -> None:
        """A link from any game's welcome or turn emails, old or not, given back to "email me a fresh link"."""
        links = [row.body_text for row in self.outbox(kinds=("game_started", "your_turn", "seat_link"))]
        tokens = [found.group(1) for text in links for found in re.finditer(r"/play/([\w.-]+)", text or "")]
        if not tokens:
            return
        token = data.draw(st.sampled_from(tokens))
        before = self.mail_ids()
        try:
            answer = self.runtime.fresh_links.request(token, f"203.0.113.{seat}")
        except PbemError:
            return
        sent = [row for row in self.outbox(kinds=("fresh_link",)) if row.id not in before]
        event(f"a fresh link asked for: {answer.value}")
        if answer is FreshLink.SENT:
            assert len(sent) == 1, f"the page says a fresh link is on its way, and {len(sent)} were queued"
        else:
            assert not sent, f"a fresh link was queued, and the page says {answer.value}"

    # -- spectators --------------------------------------------------------------------------------

    @precondition(lambda self: self.table.spectators)
    @rule(who=st.sampled_from(FANS), data=st.data())
    def a_spectator_asks_for_round_emails(self, who: str, data: st.DataObject) -> None:
        token = data.draw(st.sampled_from(self.table.spectators))
        self.expect_refusals(lambda: self.runtime.spectators.ask_for_round_emails(token, who, "198.51.100.200"))

    @precondition(lambda self: self.fans)
    @rule(data=st.data(), newest=st.booleans())
    def a_spectator_confirms_round_emails(self, data: st.DataObject, newest: bool) -> None:
        mailbox = data.draw(st.sampled_from(sorted(self.fans)))
        letters = self.fans[mailbox]
        letter = letters[-1 if newest else 0]
        try:
            watch = self.runtime.spectators.confirm_round_emails(letter.token)
        except BadLink:
            return  # the link was revoked since
        self.subscribers[(watch.rsplit("/", 1)[-1], mailbox)] = True

    @precondition(lambda self: self.stops)
    @rule(data=st.data())
    def a_spectator_stops_round_emails(self, data: st.DataObject) -> None:
        mailbox = data.draw(st.sampled_from(sorted(self.stops)))
        stop = data.draw(st.sampled_from(self.stops[mailbox]))
        email, _title, watch = self.runtime.spectators.check_stop(stop.token)
        assert mailbox_key(email) == mailbox
        self.runtime.spectators.stop_round_emails(stop.token)
        for key in self.subscribers:
            if key[1] == mailbox and (watch is None or key[0] == watch.rsplit("/", 1)[-1]):
                self.subscribers[key] = False

    # -- games joined by invite --------------------------------------------------------------------

    @precondition(lambda self: self.invite is None or self.invite.game_id is not None)
    @rule(auto_start=st.booleans(), players_may_rematch=st.booleans(), places=PLACES, bots=BOTS)
    def the_host_shares_an_invite_link(self, auto_start: bool, players_may_rematch: bool, places: int,
                                       bots: int) -> None:
        self.share_an_invite(auto_start, players_may_rematch, places, bots)

    def share_an_invite(self, auto_start: bool, players_may_rematch: bool, places: int, bots: int) -> None:
        invites = self.runtime.invites
        title = f"Open mine {len(self.invites) + 1}"
        try:
            invite_id = invites.create(HOST, InviteSettings(
                title=title, variant="base", options=None, policies={}, places=places,
                bots=bots, seat_order="joined", auto_start=auto_start, players_may_rematch=players_may_rematch,
                host_name=None,
            ))
        except PbemError:
            return
        self.invite = InviteRun(invite_id, title, invites.detail(invite_id, HOST).link.rsplit("/", 1)[-1], auto_start)
        self.invites.append(self.invite)

    @rule(everyone=st.permutations(JOINERS), how_many=st.integers(min_value=1, max_value=len(JOINERS)),
          at_once=st.lists(st.sampled_from(["press", "open", "later"]), min_size=len(JOINERS),
                           max_size=len(JOINERS)),
          zone=st.sampled_from(ZONES), client=st.sampled_from([f"198.51.100.{n}" for n in range(100, 104)]),
          auto_start=st.booleans(), places=PLACES, bots=BOTS)
    def newcomers_join_by_the_link(
        self, everyone: list[str], how_many: int, at_once: list[str], zone: str, client: str, auto_start: bool,
        places: int, bots: int,
    ) -> None:
        """Real people join with their own addresses (by a link the host shares now, when none is out), and each
        is emailed a link to confirm it; each (`at_once`) opens it and presses its button straight away, or leaves
        the page open to press it another time, or reads the email later."""
        if self.invite is None or self.invite.game_id is not None:
            self.share_an_invite(auto_start, not auto_start, places, bots)
        invite = self.invite
        if invite is None:
            return
        who = everyone[:how_many]
        for name in who:
            self.expect_refusals(lambda name=name: self.runtime.invites.join(
                invite.link, name, address_of(name), zone, client))
        self.read_the_mail()
        for name, now in zip(who, at_once, strict=False):
            mailbox = mailbox_key(address_of(name))
            if now == "later" or not invite.letters.get(mailbox) or mailbox in invite.pages:
                continue
            letter = self.open_the_confirmation(invite, mailbox, newest=True)
            if letter is not None and now == "open":
                invite.pages[mailbox] = letter
            elif letter is not None:
                self.press_confirm(invite, mailbox, letter)

    @precondition(lambda self: self.invite is not None)
    @rule(who=st.sampled_from(STRANGER_TARGETS),
          clients=st.lists(st.sampled_from([f"198.51.100.{n}" for n in range(1, 65)]), min_size=1, max_size=8),
          someone_waiting=st.booleans(), data=st.data())
    def a_stranger_joins_with_someone_s_address(
        self, who: str, clients: list[str], someone_waiting: bool, data: st.DataObject,
    ) -> None:
        """A burst of joins with one address from many clients, as a script would send them: a victim's, or
        (`someone_waiting`) the address of someone on the list who has not confirmed yet."""
        invite = self.invite
        assert invite is not None
        waiting = sorted(box for box in invite.letters if box not in invite.told_confirmed)
        if someone_waiting and waiting:
            who = data.draw(st.sampled_from(waiting))
        for client in clients:
            self.expect_refusals(lambda client=client: self.runtime.invites.join(
                invite.link, "Mallory", who, "UTC", client))
        self.read_the_mail()

    @precondition(lambda self: any(any(invite.letters.values()) for invite in self.invites))
    @rule(data=st.data(), newest=st.booleans(), press=st.booleans())
    def newcomers_confirm_through_the_emailed_link(self, data: st.DataObject, newest: bool, press: bool) -> None:
        """Each opens the confirmation link of an email (the first or the newest) and presses its button, or (not
        `press`) leaves the page open to press it another time, whatever happened to the game meanwhile; one with
        a page open presses it. Late ones too: the invite's game may have started without them."""
        invite = data.draw(st.sampled_from([invite for invite in self.invites if any(invite.letters.values())]))
        boxes = sorted(box for box, letters in invite.letters.items() if letters)
        for mailbox in data.draw(st.lists(st.sampled_from(boxes), min_size=1, max_size=4, unique=True)):
            letter = invite.pages.pop(mailbox, None)
            if letter is None:
                letter = self.open_the_confirmation(invite, mailbox, newest)
                if letter is not None and not press:
                    invite.pages[mailbox] = letter
                    continue
            if letter is not None:
                self.press_confirm(invite, mailbox, letter)

    @precondition(lambda self: self.invite is not None and self.invite.game_id is None
                  and any(self.invite.letters.values()))
    @rule(data=st.data(), newest=st.booleans(), start_after=st.integers(min_value=0, max_value=4))
    def joiners_confirm_while_the_host_presses_start(self, data: st.DataObject, newest: bool,
                                                     start_after: int) -> None:
        """A busy minute: joiners who opened their confirmation pages press their buttons, and the host presses
        Start after `start_after` of them (the requests served one after another, in that order)."""
        invite = self.invite
        assert invite is not None
        boxes = sorted(box for box, letters in invite.letters.items() if letters)
        chosen = data.draw(st.lists(st.sampled_from(boxes), min_size=1, max_size=4, unique=True))
        pages = [(box, invite.pages.pop(box, None) or self.open_the_confirmation(invite, box, newest))
                 for box in chosen]
        for index, (mailbox, letter) in enumerate(pages):
            if index == start_after:
                self.the_host_presses_start(invite)
            if letter is not None:
                self.press_confirm(invite, mailbox, letter)
        if start_after >= len(pages):
            self.the_host_presses_start(invite)

    # Weights: a game joined by invite and a rematch each take several steps in a row, so their rules are drawn
    # twice as often as the others (Hypothesis draws each rule name alike).
    more_newcomers_join_by_the_link = newcomers_join_by_the_link
    more_newcomers_confirm_through_the_emailed_link = newcomers_confirm_through_the_emailed_link
    more_joiners_confirm_while_the_host_presses_start = joiners_confirm_while_the_host_presses_start

    def open_the_confirmation(self, invite: InviteRun, mailbox: str, newest: bool) -> Letter | None:
        """The page of an emailed confirmation link (its GET, which changes nothing): the letter, when the page
        shows the button."""
        letter = invite.letters[mailbox][-1 if newest else 0]
        waits = self.place_waits(invite, mailbox, letter)
        try:
            self.runtime.invites.confirmation(letter.token)
        except InviteUnavailable:
            return None  # started, or full: the page says so
        except BadLink:
            assert not waits, f"{mailbox}'s confirmation link stopped working while their place waits"
            return None
        return letter

    def press_confirm(self, invite: InviteRun, mailbox: str, letter: Letter) -> None:
        """The button of an open confirmation page (its POST)."""
        waits = self.place_waits(invite, mailbox, letter)
        try:
            confirmation = self.runtime.invites.confirm(letter.token)
        except InviteUnavailable:
            event("a newcomer's confirmation was refused: " + ("started" if self.invite_started(invite) else "full"))
            return  # started, or full: the page says so
        except BadLink:
            assert not waits, f"{mailbox}'s confirmation link stopped working while their place waits"
            return
        assert mailbox_key(confirmation.email) == mailbox, "a link confirms another person's place"
        invite.told_confirmed.add(mailbox)
        event("a newcomer was told their place is confirmed")
        if confirmation.started_game is not None:
            self.an_invite_s_game_started(invite, confirmation.started_game)

    def place_waits(self, invite: InviteRun, mailbox: str, letter: Letter) -> bool:
        """Whether the mailbox's place waits for this letter's link: on the list, the link fresh, the game not
        started."""
        detail = self.runtime.invites.detail(invite.invite_id, HOST)
        place = next((row for row in detail.joiners if mailbox_key(row.email) == mailbox), None)
        fresh = self.clock.now() - letter.sent_at < timedelta(days=2) - timedelta(minutes=1)
        return fresh and place is not None and detail.started_game is None

    def invite_started(self, invite: InviteRun) -> bool:
        return self.runtime.invites.detail(invite.invite_id, HOST).started_game is not None

    @precondition(lambda self: self.invite is not None and self.invite.game_id is None)
    @rule()
    def the_host_starts_the_invite_s_game(self) -> None:
        invite = self.invite
        assert invite is not None
        self.the_host_presses_start(invite)

    def the_host_presses_start(self, invite: InviteRun) -> None:
        try:
            game_id = self.runtime.invites.start(invite.invite_id, HOST)
        except PbemError:
            return
        self.an_invite_s_game_started(invite, game_id)

    def an_invite_s_game_started(self, invite: InviteRun, game_id: str) -> None:
        assert self.runtime.invites.detail(invite.invite_id, HOST).started_game == game_id, (
            "a game started that the invite does not lead to")
        invite.game_id = game_id
        invite.seated = {mailbox_key(seat.email) for seat in self.runtime.games.invites(game_id) if seat.email}
        event("an invite's game started")
        self.follow(game_id)

    def read_the_mail(self) -> None:
        """Every confirmation email sent so far, as each joiner's mail program lists it; and the joiners' names."""
        self.runtime.deliverer().run()
        for invite in self.invites:
            invite.letters.clear()
        for row in self.outbox(kinds=("join_confirm",)):
            found = CONFIRM_LINK.search(row.body_text or "")
            assert found, "a join confirmation without its link"
            for invite in self.invites:
                if row.subject == f"Confirm your place in {invite.title} - Saboteur":
                    invite.letters.setdefault(mailbox_key(row.to_address), []).append(
                        Letter(found.group(1), row.created_at))
        for invite in self.invites:
            if invite.game_id is None:
                for joiner in self.runtime.invites.detail(invite.invite_id, HOST).joiners:
                    invite.names.setdefault(joiner.id, joiner.name)

    # -- anyone ------------------------------------------------------------------------------------

    @rule(who=st.sampled_from(["ann@example.org", "Ben+games@example.org", "jo@example.org", "stranger@example.org"]),
          client=st.sampled_from(["198.51.100.7", "198.51.100.8"]), times=st.integers(min_value=1, max_value=5))
    def someone_asks_for_a_sign_in_link(self, who: str, client: str, times: int) -> None:
        """The home page's form, sent again and again as an impatient person does: each page says what was done,
        and is true to it."""
        for _ in range(times):
            before = self.mail_ids()
            try:
                answer = self.runtime.player_access.request_link(who, client)
            except PbemError:
                return
            sent = [row for row in self.outbox(kinds=("player_sign_in",)) if row.id not in before]
            event(f"a sign-in link asked for: {answer.value}")
            if answer is LinkRequest.ASKED_OFTEN:
                assert not sent, "the page says nothing was sent this time, and a sign-in link was"
            elif self.holds_a_seat(who):
                assert len(sent) == 1, f"the page says a sign-in link is on its way, and {len(sent)} were queued"
            else:
                assert not sent, "a sign-in link went to an address that holds no seat"

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

    def current_seq(self, game_id: str | None = None) -> int:
        seq = self.runtime.games.current_state(game_id or self.game_id).seq
        return seq if seq is not None else 0

    def outbox(self, *, kinds: tuple[str, ...] | None = None) -> list[OutboxMessage]:
        with self.runtime.db.read() as session:
            query = select(OutboxMessage).order_by(OutboxMessage.id)
            if kinds is not None:
                query = query.where(OutboxMessage.kind.in_(kinds))
            return list(session.scalars(query))

    def mail_ids(self) -> set[int]:
        with self.runtime.db.read() as session:
            return set(session.scalars(select(OutboxMessage.id)))

    def holds_a_seat(self, address: str) -> bool:
        with self.runtime.db.read() as session:
            emails = session.scalars(select(Seat.email).where(Seat.is_bot.is_(False)))
            return any(email and mailbox_key(email) == mailbox_key(address) for email in emails)

    def clock_row(self, game_id: str) -> TurnClock | None:
        with self.runtime.db.read() as session:
            game = session.scalars(select(Game).where(Game.public_id == game_id)).one()
            clock = session.get(TurnClock, game.id)
            if clock is None or clock.seq != game.current_seq or game.status != "active":
                return None
            return clock

    def pending_deadline(self, seat: int) -> tuple[int, datetime] | None:
        clock = self.clock_row(self.game_id)
        if clock is None or clock.seat != seat or clock.deadline_at is None:
            return None
        return clock.seq, clock.deadline_at

    def assert_not_earlier(self, seat: int, before: tuple[int, datetime] | None) -> None:
        after = self.pending_deadline(seat)
        if before is not None and after is not None and before[0] == after[0]:
            assert after[1] >= before[1], f"{self.table.names[seat]}'s own settings moved the deadline earlier"

    # -- what must always hold ---------------------------------------------------------------------

    @invariant()
    def every_deadline_shown_is_the_stored_one(self) -> None:
        for table in self.tables.values():
            self.deadline_shown_is_the_stored_one(table)

    def deadline_shown_is_the_stored_one(self, table: Table) -> None:
        clock = self.clock_row(table.game_id)
        state = self.runtime.games.current_state(table.game_id)
        stored = clock.deadline_at if clock is not None and not state.paused else None
        seat = clock.seat if clock is not None else None
        if seat is None:
            return
        profile = self.runtime.seats.profile(table.game_id, seat)
        assert profile.deadline_at == stored, "the turn page shows another deadline"
        email = table.emails[seat]
        if email is not None:
            mine = [entry for entry in self.runtime.player_home.my_games(Player(email, mailbox_key(email)))
                    if entry.title == table.title]
            assert [entry.deadline for entry in mine] == [stored], "My games shows another deadline"
        row = self.runtime.hosting.detail(table.game_id, HOST).row
        assert row.deadline == stored, "the host page shows another deadline"

    @invariant()
    def every_history_line_names_who_made_the_move_then(self) -> None:
        for table in self.tables.values():
            made = {move.seq: move.name for move in table.moves}
            for entry in self.runtime.games.history(table.game_id, None):
                if entry.seq in made and entry.actor is not None:
                    assert entry.actor_name == made[entry.seq], (
                        f"move {entry.seq} was {made[entry.seq]}'s, the log says {entry.actor_name}"
                    )

    @invariant()
    def every_game_is_one_that_was_meant_to_start(self) -> None:
        """Each game in the database is the host's, a rematch the previous game leads to, or the game an invite
        leads to; and whoever was told their place is confirmed sits in the invite's game."""
        with self.runtime.db.read() as session:
            games = dict(session.execute(select(Game.id, Game.public_id)).tuples().all())
            rematches = {games[row.game_id] for row in session.scalars(select(Rematch)) if row.game_id}
            invited = {games[row.game_id] for row in session.scalars(select(Invite)) if row.game_id}
        assert set(games.values()) == set(self.tables), "a game started that no one meant to start"
        assert set(self.tables) == {next(iter(self.tables))} | rematches | invited
        for invite in self.invites:
            if invite.game_id is None:
                continue
            missing = invite.told_confirmed - invite.seated  # (the host may replace them later: that is another story)
            assert not missing, f"{sorted(missing)} told 'your place is confirmed', and the game started without them"

    @invariant()
    def a_waiting_joiner_keeps_their_place_and_name(self) -> None:
        for invite in self.invites:
            if invite.game_id is None:
                for joiner in self.runtime.invites.detail(invite.invite_id, HOST).joiners:
                    joined_as = invite.names.setdefault(joiner.id, joiner.name)
                    assert joiner.name == joined_as, f"{joined_as} was renamed {joiner.name} by someone else's join"

    @invariant()
    def mail_goes_out_once_and_tells_the_stored_deadline(self) -> None:
        """The mail worker runs (it sends within seconds): nothing queued and due stays behind, nothing is sent
        twice, and an email sent now about the pending turn gives the deadline in force."""
        with self.runtime.db.read() as session:
            sent_before = set(session.scalars(select(OutboxMessage.id).where(OutboxMessage.status == "sent")))
        self.runtime.deliverer().run()
        now = self.clock.now()
        rows = self.outbox()
        assert all(row.status in ("queued", "sent", "dropped") for row in rows), "an email is stuck or failed"
        assert not [row for row in rows if row.status == "queued" and row.next_attempt_at <= now], "an email is lost"
        assert len({row.message_id for row in rows}) == len(rows)
        fresh = [row for row in rows if row.id not in sent_before and row.status == "sent"]
        for table in self.tables.values():
            self.deadline_emails_tell_the_stored_one(table, fresh)

    def deadline_emails_tell_the_stored_one(self, table: Table, fresh: list[OutboxMessage]) -> None:
        with self.runtime.db.read() as session:
            game = session.scalars(select(Game).where(Game.public_id == table.game_id)).one()
            clock = session.get(TurnClock, game.id)
            seats = {seat.seat_index: seat for seat in game.seats}
            paused = game.paused
        if clock is None or clock.seat is None or clock.deadline_at is None or paused:
            return
        acting = seats[clock.seat]
        told = format_when(clock.deadline_at, acting.timezone)
        for row in fresh:
            if row.seat_id == acting.id and row.kind in DEADLINE_KINDS and row.game_seq == clock.seq:
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
    def spectators_are_emailed_each_round_end_they_asked_for_and_no_other(self) -> None:
        """Confirmation links go to whoever asked; each round's end goes once to every confirmed subscriber of a
        live link, and to nobody who stopped them or whose link was revoked."""
        self.fans = {}
        for row in self.outbox(kinds=("spectator_confirm",)):
            found = SPECTATOR_CONFIRM_LINK.search(row.body_text or "")
            assert found, "a spectator confirmation without its link"
            self.fans.setdefault(mailbox_key(row.to_address), []).append(Letter(found.group(1), row.created_at))
        round_ends = self.outbox(kinds=("spectator_round_end",))
        self.stops = {}
        for row in round_ends:
            found = SPECTATOR_STOP_LINK.search(row.body_text or "")
            assert found, "a round-end email without its stop link"
            self.stops.setdefault(mailbox_key(row.to_address), []).append(Letter(found.group(1), row.created_at))
        for table in self.tables.values():
            results = (self.runtime.games.current_state(table.game_id).view or {}).get("results", [])
            for result in results[table.rounds_over:]:
                subject = f"Round {result['round']} of {table.title} is over - Saboteur"
                told = sorted(mailbox_key(row.to_address) for row in round_ends if row.subject == subject)
                wanted = sorted(mailbox for (token, mailbox), on in self.subscribers.items()
                                if on and token in table.spectators)
                assert told == wanted, f"round {result['round']}'s end was emailed to {told}, not {wanted}"
                if told:
                    event("a round's end was emailed to spectators")
            table.rounds_over = len(results)

    @invariant()
    def no_one_is_shown_a_card_they_may_not_see(self) -> None:
        table = self.table
        state, _ = self.runtime.games.engine_state(table.game_id)
        for seat in range(len(table.names)):
            seen = self.runtime.games.current_state(table.game_id, seat)
            data = {"view": seen.view, "moves": seen.legal_moves}
            shown = set(json_cards(data)) - cards_of_finished_rounds(data)
            assert not shown & hidden_cards(state, seat), f"seat {seat} is shown a card it may not see"
        for token in table.spectators:
            try:
                view = self.runtime.spectators.view(token)
            except PbemError:
                continue
            data = {"view": view.state.view}
            shown = set(json_cards(json.loads(json.dumps(data, default=str)))) - cards_of_finished_rounds(data)
            assert not shown & set().union(*state.hands, state.draw_pile), "a spectator is shown a hidden card"

    @invariant()
    def now_and_then_nothing_shown_depends_on_what_is_hidden(self) -> None:
        self.steps += 1
        if self.steps % TWIN_EVERY == 0:
            self.check_the_twins()

    def check_the_twins(self) -> None:
        """The twin check on the game in view, while it runs (once it is over, everything is open)."""
        if not self.running():
            return
        found = self.twins.differences(self.runtime, self.game_id, len(self.table.names), self.table.spectators,
                                       HOST, self.rng)
        assert not found, f"shown differently when only hidden information differs: {found}"
        event("the twins were compared")
