""" "Email me a fresh link": only an authentic, merely expired, unrevoked link gets one, by email, rate limited; and
every answer says what really happens (a link on its way, a few sent already, the seat changed hands, a newer
link, or nothing possible), so nobody waits for a link that will not come."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlalchemy import select, update

from pbem.clock import SettableClock
from pbem.errors import RateLimited
from pbem.models import OutboxMessage, Seat
from pbem.runtime import Runtime
from pbem.seat_link import SeatLink
from pbem.service.host.host_access import HostSession
from pbem.service.seats.fresh_links import PER_CLIENT, PER_SEAT, FreshLink
from pbem.service.turns.values import PlayerSpec
from tests.support.database import dump
from tests.support.games import PEOPLE, NewGame, seat_token

CLIENT = "203.0.113.7"
HOST = HostSession(email="host@example.org", is_admin=False)
LINK_PATTERN = re.compile(r"https://pbem\.test/play/(\S+)")


def fresh_emails(runtime: Runtime) -> list[OutboxMessage]:
    with runtime.db.read() as session:
        return list(session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "fresh_link")))


def expire(runtime: Runtime, clock: SettableClock) -> None:
    clock.advance(timedelta(days=runtime.config.link_max_age_days, seconds=1))


def test_an_expired_link_brings_a_fresh_one_to_the_address_on_file(runtime, new_game: NewGame, clock) -> None:
    game_id = new_game()
    old = seat_token(runtime, game_id, 1)
    expire(runtime, clock)
    offered = runtime.fresh_links.look(old)

    answer = runtime.fresh_links.request(old, CLIENT)

    assert offered is FreshLink.MAY_ASK and answer is FreshLink.SENT
    [email] = fresh_emails(runtime)
    assert email.to_address == "ben@example.org"
    [fresh] = LINK_PATTERN.findall(email.body_text)
    assert runtime.games.resolve_link(fresh) == SeatLink(game_id=game_id, seat=1, version=1)
    assert f'href="https://pbem.test/play/{fresh}"' in email.body_html


@pytest.mark.parametrize(("case", "fate"), [
    ("forged", FreshLink.NONE), ("still valid", FreshLink.NONE), ("revoked", FreshLink.NEWER_LINK),
    ("computer seat", FreshLink.NONE), ("unknown game", FreshLink.NONE),
])
def test_no_other_link_gets_a_fresh_one_and_none_is_offered(
    runtime, new_game: NewGame, clock, case: str, fate: FreshLink,
) -> None:
    game_id = new_game([*PEOPLE, PlayerSpec("Bot", is_bot=True)])
    token = seat_token(runtime, game_id, 3 if case == "computer seat" else 1)
    if case == "forged":
        token = token[:-2] + ("AA" if not token.endswith("AA") else "BB")
    if case == "unknown game":
        token = runtime.links.token(SeatLink(game_id="no-such-game", seat=0, version=1))
    if case == "revoked":
        with runtime.db.write() as session:
            session.execute(update(Seat).where(Seat.seat_index == 1).values(token_version=2))
    if case != "still valid":
        expire(runtime, clock)
    offered = runtime.fresh_links.look(token)

    answer = runtime.fresh_links.request(token, CLIENT)

    assert offered is answer is fate
    assert fresh_emails(runtime) == []


def test_a_seat_gets_a_few_fresh_links_a_day_and_then_is_told_none_comes(runtime, new_game: NewGame, clock) -> None:
    game_id = new_game()
    old = seat_token(runtime, game_id, 1)
    expire(runtime, clock)

    answers = [runtime.fresh_links.request(old, f"198.51.100.{attempt}") for attempt in range(PER_SEAT.count + 2)]
    refused = len(fresh_emails(runtime))
    clock.advance(PER_SEAT.window)
    next_day = runtime.fresh_links.request(old, "198.51.100.99")

    assert answers == [FreshLink.SENT] * PER_SEAT.count + [FreshLink.ASKED_OFTEN] * 2
    assert refused == PER_SEAT.count
    assert next_day is FreshLink.SENT and len(fresh_emails(runtime)) == PER_SEAT.count + 1


def test_a_client_that_asks_too_often_is_told_so_and_nothing_is_sent(runtime, new_game: NewGame, clock) -> None:
    game_id = new_game()
    old = seat_token(runtime, game_id, 1)
    expire(runtime, clock)
    for _ in range(PER_CLIENT.count):
        runtime.fresh_links.request("not-a-token", CLIENT)
    before = dump(runtime.db)

    with pytest.raises(RateLimited):
        runtime.fresh_links.request(old, CLIENT)

    assert dump(runtime.db) == before
    runtime.fresh_links.request(old, "198.51.100.1")
    assert len(fresh_emails(runtime)) == 1, "another client address is counted apart"


# -- a link the host replaced --------------------------------------------------------------------------------------


def test_a_replaced_players_old_link_says_the_seat_changed_hands_and_brings_nothing(
    runtime, new_game: NewGame, clock,
) -> None:
    game_id = new_game()
    old = seat_token(runtime, game_id, 1)
    runtime.moderation.replace_player(game_id, 1, "Dee", "dee@example.org", host=HOST)
    before_expiry = runtime.fresh_links.look(old)
    expire(runtime, clock)

    answer = runtime.fresh_links.request(old, CLIENT)

    assert before_expiry is runtime.fresh_links.look(old) is answer is FreshLink.SEAT_CHANGED_HANDS
    assert fresh_emails(runtime) == []


def test_a_renewed_link_says_a_newer_one_was_sent_and_brings_nothing(runtime, new_game: NewGame, clock) -> None:
    game_id = new_game()
    old = seat_token(runtime, game_id, 1)
    runtime.moderation.rotate_link(game_id, 1, host=HOST)
    expire(runtime, clock)

    answer = runtime.fresh_links.request(old, CLIENT)

    assert runtime.fresh_links.look(old) is answer is FreshLink.NEWER_LINK
    assert fresh_emails(runtime) == []


def test_only_a_link_from_before_the_seat_changed_hands_is_told_so(runtime, new_game: NewGame) -> None:
    game_id = new_game()
    first = seat_token(runtime, game_id, 1)
    runtime.moderation.rotate_link(game_id, 1, host=HOST)
    second = seat_token(runtime, game_id, 1)
    runtime.moderation.replace_player(game_id, 1, "Dee", "dee@example.org", host=HOST)
    newcomers_first = seat_token(runtime, game_id, 1)
    runtime.moderation.rotate_link(game_id, 1, host=HOST)

    fates = [runtime.fresh_links.look(token) for token in (first, second, newcomers_first)]

    assert fates == [FreshLink.SEAT_CHANGED_HANDS, FreshLink.SEAT_CHANGED_HANDS, FreshLink.NEWER_LINK]
