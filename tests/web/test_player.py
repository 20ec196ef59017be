"""The player's pages through the Flask test client: links, the table, moves, settings, errors, side effects.

Positions come from `store_game` (a seeded deal), so each test knows the hand it plays with; moves are
taken from the page's own buttons, as a browser would post them.
"""

from __future__ import annotations

import html
import json
import random
import re
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select, update

import engine
from pbem.models import OutboxMessage, Seat
from pbem.runtime import Runtime
from pbem.service.seats.fresh_links import PER_CLIENT
from tests.support.database import dump
from tests.support.games import dig_for_gold, play_until, seat_token, snapshot_count, store_game
from tests.support.refusals import told
from tests.support.web import current, form_fields, open_table, page_moves, table_path

NAMES = ["Ann", "Ben", "Cat"]
# Seed 1 deals Ann (seat 0, first to play) path cards, a broken lantern and a map.
SEED = 1


@pytest.fixture
def game(runtime_of: Runtime) -> str:
    return store_game(runtime_of, engine.new_game(NAMES, seed=SEED))


def canonical(move: dict[str, Any]) -> str:
    return json.dumps(move, sort_keys=True)


def post_move(client: FlaskClient, game_id: str, page: str, move: dict[str, Any], **overrides: str) -> Any:
    data = {**form_fields(page), "move": json.dumps(move), "confirmed": "yes", **overrides}
    return client.post(f"{table_path(game_id)}/move", data=data)


# -- the link and the cookie --------------------------------------------------------------------------------


def test_a_link_remembers_the_seat_in_the_session_and_shows_the_table_without_the_token(
    client, runtime_of, game
) -> None:
    token = seat_token(runtime_of, game, 0)

    response = client.get(f"/play/{token}")

    assert response.status_code == 303
    assert response.headers["Location"] == table_path(game)
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" in cookie  # base_url is https
    page = client.get(table_path(game)).get_data(as_text=True)
    assert token not in page
    assert "You are Ann" in page


def test_the_cookie_is_sent_again_only_when_it_changes(client, runtime_of, game) -> None:
    client.get(f"/play/{seat_token(runtime_of, game, 0)}")
    client.get(table_path(game))  # the first page adds the CSRF token to the session

    again = client.get(table_path(game))
    reopened = client.get(f"/play/{seat_token(runtime_of, game, 0)}")

    assert "Set-Cookie" not in again.headers
    assert "Set-Cookie" in reopened.headers and "Expires=" in reopened.headers["Set-Cookie"]


def test_the_token_address_keeps_working_for_every_route(client, runtime_of, game) -> None:
    token = seat_token(runtime_of, game, 0)
    page = open_table(client, runtime_of, game, 0)
    move = page_moves(page)[0]

    state = client.get(f"/play/{token}/state.json").get_json()
    response = client.post(
        f"/play/{token}/move", data={**form_fields(page), "move": json.dumps(move), "confirmed": "yes"}
    )

    assert state["seat"] == 0 and state["seq"] == 0
    assert response.status_code == 303 and response.headers["Location"] == f"/play/{token}"
    assert snapshot_count(runtime_of) == 2


def test_a_browser_without_the_link_gets_a_friendly_403_and_an_unknown_game_a_404(client, runtime_of, game) -> None:
    page = client.get(table_path(game))

    assert page.status_code == 403
    assert "Please open the link from your latest email" in page.get_data(as_text=True)
    assert client.get(table_path("no-such-game")).status_code == 404
    assert client.get(f"{table_path('no-such-game')}/state.json").get_json()["error"] == "game_not_found"


def test_each_browser_remembers_its_own_seat(app: Flask, runtime_of, game) -> None:
    ann, ben = app.test_client(), app.test_client()

    ann_page = open_table(ann, runtime_of, game, 0)
    ben_page = open_table(ben, runtime_of, game, 1)

    assert "You are Ann" in ann_page and "You are Ben" in ben_page
    assert "You are Ben" in ben.get(table_path(game)).get_data(as_text=True)


# -- links that no longer work ----------------------------------------------------------------------------------


def bad_links(runtime: Runtime, game_id: str, clock: Any) -> dict[str, tuple[str, int]]:
    """A forged, an expired and a revoked link to seat 1, each with the status it must get."""
    token = seat_token(runtime, game_id, 1)
    forged = token[:-3] + ("abc" if not token.endswith("abc") else "xyz")
    old = seat_token(runtime, game_id, 2)
    clock.advance(timedelta(days=runtime.config.link_max_age_days, seconds=1))
    with runtime.db.write() as session:
        session.execute(update(Seat).where(Seat.seat_index == 1).values(token_version=2))
    return {"forged": (forged, 403), "expired": (old, 410), "revoked": (token, 410)}


def test_a_bad_expired_or_revoked_link_gets_its_status_and_a_fresh_link_button_only_if_one_would_come(
    client, runtime_of, game, clock
) -> None:
    pages = {}
    for case, (token, status) in bad_links(runtime_of, game, clock).items():
        response = client.get(f"/play/{token}")

        assert response.status_code == status
        pages[case] = response.get_data(as_text=True)

    assert "This link has expired" in pages["expired"] and "Email me a fresh link" in pages["expired"]
    assert "This link is no longer valid." in pages["forged"]
    assert "This link has been replaced by a newer one" in pages["revoked"]
    for case in ("forged", "revoked"):
        assert "Email me a fresh link" not in pages[case] and "sign in to My games" in pages[case]


def test_link_errors_are_json_for_scripts(client, runtime_of, game, clock) -> None:
    links = bad_links(runtime_of, game, clock)

    answers = {case: client.get(f"/play/{token}/state.json") for case, (token, _) in links.items()}

    assert {case: (r.status_code, r.get_json()["message"]) for case, r in answers.items()} == {
        "forged": (403, "This link is no longer valid."),
        "expired": (410, "This link is no longer valid."),
        "revoked": (410, "This link is no longer valid."),
    }


def fresh_link_emails(runtime: Runtime) -> list[OutboxMessage]:
    with runtime.db.read() as session:
        return list(session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "fresh_link")))


def test_the_fresh_link_button_emails_only_an_expired_links_seat_and_each_answer_says_what_happened(
    client, runtime_of, game, clock
) -> None:
    links = bad_links(runtime_of, game, clock)
    fields = form_fields(client.get(f"/play/{links['expired'][0]}").get_data(as_text=True))
    answers = {case: client.post(f"/play/{token}/fresh-link", data=fields) for case, (token, _) in links.items()}

    assert {answer.status_code for answer in answers.values()} == {200}
    assert "A fresh link to this seat is on its way" in answers["expired"].get_data(as_text=True)
    for case in ("forged", "revoked"):
        assert "Check your email" not in answers[case].get_data(as_text=True)
    [email] = fresh_link_emails(runtime_of)
    assert email.to_address == "cat@example.org"


def client_at(app: Flask, address: str) -> FlaskClient:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def test_the_fresh_link_button_is_rate_limited_per_client_address(app: Flask, runtime_of, game, clock) -> None:
    client = client_at(app, "203.0.113.9")
    token = bad_links(runtime_of, game, clock)["expired"][0]
    fields = form_fields(client.get(f"/play/{token}").get_data(as_text=True))
    for _ in range(PER_CLIENT.count):
        assert client.post(f"/play/{token}/fresh-link", data=fields).status_code == 200

    refused = client.post(f"/play/{token}/fresh-link", data=fields)

    assert refused.status_code == 429
    assert "Too many" in refused.get_data(as_text=True)
    elsewhere = client_at(app, "198.51.100.4")
    fields = form_fields(elsewhere.get(f"/play/{token}").get_data(as_text=True))
    assert elsewhere.post(f"/play/{token}/fresh-link", data=fields).status_code == 200


# -- the table ----------------------------------------------------------------------------------------------------


def test_the_table_shows_the_seats_own_hand_role_and_moves_and_the_public_table(client, runtime_of, game) -> None:
    state = current(runtime_of, game)
    view = engine.view(state, 0)

    page = open_table(client, runtime_of, game, 0)

    assert "Your turn: play a card, or pass." in page
    assert "Gold-digger" in page or "Saboteur" in page
    for card in view["you"]["hand"]:
        assert f'data-card="{card["id"]}"' in page
    assert sorted(map(canonical, page_moves(page))) == sorted(map(canonical, engine.legal_moves(state, 0)))
    assert '<svg class="board' in page and "The board as a list" in page
    for name in NAMES:
        assert name in page
    assert f"Draw pile: {view['draw_pile']}" in page
    assert "Deadline for this turn: Thu 8 Jan, 09:00 UTC (in 3 days)." in page


def test_a_seat_that_is_not_to_play_sees_whose_turn_and_since_when_and_no_moves(
    client, runtime_of, game, clock
) -> None:
    clock.advance(timedelta(hours=5))

    page = open_table(client, runtime_of, game, 1)

    assert "Ann&#39;s turn." in page
    assert "Since Mon 5 Jan, 09:00 UTC (5 hours ago)." in page
    assert page_moves(page) == [] and 'id="move-form"' not in page


def deadline_classes(page: str) -> list[str]:
    found = re.search(r'<p class="([^"]*)">Deadline for this turn:', page)
    assert found, page[:3000]
    return found.group(1).split()


def test_the_deadline_is_calm_until_the_warning_window_and_urgent_inside_it(client, runtime_of, game, clock) -> None:
    """The deadline is 72 hours after the turn began and its warning goes out 6 hours before it."""
    clock.advance(timedelta(hours=65, minutes=59))
    calm = open_table(client, runtime_of, game, 0)
    clock.advance(timedelta(minutes=2))
    close = open_table(client, runtime_of, game, 0)

    assert deadline_classes(calm) == ["deadline"]
    assert deadline_classes(close) == ["deadline", "deadline-close"]


def test_state_json_holds_the_view_the_legal_moves_and_the_sequence(client, runtime_of, game) -> None:
    open_table(client, runtime_of, game, 0)
    state = current(runtime_of, game)

    data = client.get(f"{table_path(game)}/state.json").get_json()

    assert data["view"] == engine.view(state, 0)
    assert data["legal_moves"] == engine.legal_moves(state, 0)
    assert [choice["move"] for choice in data["choices"]] == data["legal_moves"]
    assert all(choice["label"] and json.loads(choice["value"]) == choice["move"] for choice in data["choices"])
    assert data["seq"] == 0 and data["to_act"] == 0 and data["submission_id"]


def test_the_page_is_served_with_the_security_headers_and_no_inline_script_or_style(client, runtime_of, game) -> None:
    open_table(client, runtime_of, game, 0)

    response = client.get(table_path(game))

    page = response.get_data(as_text=True)
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    assert response.headers["Cache-Control"] == "no-store"
    assert re.findall(r'<script(?![^>]*\b(?:src=|type="application/json"))', page) == []  # data is no script
    assert " style=" not in page and "<style" not in page and " on" + "click=" not in page


# -- playing ------------------------------------------------------------------------------------------------------


def test_choosing_a_move_asks_to_confirm_it_and_changes_nothing(client, runtime_of, game) -> None:
    page = open_table(client, runtime_of, game, 0)
    move = page_moves(page)[0]
    before = dump(runtime_of.db)

    response = client.post(f"{table_path(game)}/move", data={**form_fields(page), "move": json.dumps(move)})

    confirm = response.get_data(as_text=True)
    assert response.status_code == 200 and "Play this move?" in confirm
    assert form_fields(confirm)["confirmed"] == "yes" and json.loads(form_fields(confirm)["move"]) == move
    assert dump(runtime_of.db) == before


def test_a_confirmed_move_is_played_and_the_page_redirects_to_the_table_with_what_happened(
    client, runtime_of, game
) -> None:
    page = open_table(client, runtime_of, game, 0)
    move = next(m for m in page_moves(page) if m["type"] == "play" and "rotated" in m)

    response = post_move(client, game, page, move)

    assert response.status_code == 303 and response.headers["Location"] == table_path(game)
    after = client.get(table_path(game)).get_data(as_text=True)
    assert "You built a" in after and " and drew " in after
    assert current(runtime_of, game).board[(move["x"], move["y"])][0] == move["card"]
    assert "Ben&#39;s turn." in after


def test_a_double_click_plays_once(client, runtime_of, game) -> None:
    page = open_table(client, runtime_of, game, 0)
    move = page_moves(page)[0]

    first = post_move(client, game, page, move)
    second = post_move(client, game, page, move)

    assert first.status_code == second.status_code == 303
    assert snapshot_count(runtime_of) == 2


def revoke_links_of(runtime: Runtime, seat: int) -> None:
    with runtime.db.write() as session:
        session.execute(update(Seat).where(Seat.seat_index == seat).values(token_version=Seat.token_version + 1))


@pytest.mark.parametrize("confirmed", ["yes", ""], ids=["played", "asked to confirm"])
def test_a_move_from_a_page_whose_link_was_revoked_since_is_refused_and_changes_nothing(
    client, runtime_of, game, confirmed: str
) -> None:
    page = open_table(client, runtime_of, game, 0)
    move = page_moves(page)[0]
    revoke_links_of(runtime_of, 0)
    before = dump(runtime_of.db)

    answer = post_move(client, game, page, move, confirmed=confirmed)
    scripted = post_move(client, game, page, move, confirmed=confirmed, submission_id="another")
    as_json = client.post(
        f"{table_path(game)}/move", data={**form_fields(page), "move": json.dumps(move), "confirmed": confirmed},
        headers={"Accept": "application/json"},
    )

    assert answer.status_code == scripted.status_code == 410
    assert "This link has been replaced by a newer one" in answer.get_data(as_text=True)
    assert (as_json.status_code, as_json.get_json()["message"]) == (410, "This link is no longer valid.")
    assert dump(runtime_of.db) == before


def test_a_stale_page_says_who_played_and_applies_nothing(app: Flask, runtime_of, game) -> None:
    ann_tab, other_tab = app.test_client(), app.test_client()
    stale = open_table(ann_tab, runtime_of, game, 0)
    fresh = open_table(other_tab, runtime_of, game, 0)
    post_move(other_tab, game, fresh, page_moves(fresh)[0])
    ben_page = open_table(other_tab, runtime_of, game, 1)
    post_move(other_tab, game, ben_page, page_moves(ben_page)[0])
    before = dump(runtime_of.db)

    response = post_move(ann_tab, game, stale, page_moves(stale)[1])

    page = response.get_data(as_text=True)
    assert response.status_code == 409
    assert "You already played from another window or device; here is the table now." in page
    assert "Cat&#39;s turn." in page
    assert dump(runtime_of.db) == before


def test_a_stale_page_names_the_others_who_moved(app: Flask, runtime_of, game) -> None:
    cat_tab, other_tab = app.test_client(), app.test_client()
    ann_page = open_table(other_tab, runtime_of, game, 0)
    post_move(other_tab, game, ann_page, page_moves(ann_page)[0])
    ben_page = open_table(other_tab, runtime_of, game, 1)
    post_move(other_tab, game, ben_page, page_moves(ben_page)[0])
    cat_page = open_table(cat_tab, runtime_of, game, 2)
    fields = {**form_fields(cat_page), "seq": "0", "submission_id": "cat-1"}

    response = cat_tab.post(
        f"{table_path(game)}/move", data={**fields, "move": json.dumps(page_moves(cat_page)[0]), "confirmed": "yes"}
    )

    assert response.status_code == 409
    assert "Ann and Ben played while you were looking; here is the table now." in response.get_data(as_text=True)


def test_a_move_out_of_turn_is_refused_with_409(client, runtime_of, game) -> None:
    page = open_table(client, runtime_of, game, 1)
    move = {"type": "pass", "cards": [engine.view(current(runtime_of, game), 1)["you"]["hand"][0]["id"]]}

    response = client.post(
        f"{table_path(game)}/move",
        data={**form_fields(page), "seq": "0", "submission_id": "b1", "move": json.dumps(move), "confirmed": "yes"},
    )

    assert response.status_code == 409
    assert "It is not your turn." in response.get_data(as_text=True)


def test_an_illegal_move_gets_the_engines_explanation_and_422(client, runtime_of, game) -> None:
    page = open_table(client, runtime_of, game, 0)
    path_card = next(m["card"] for m in page_moves(page) if "rotated" in m)
    move = {"type": "play", "card": path_card, "x": 5, "y": 5, "rotated": False}
    with pytest.raises(engine.IllegalMove) as refused:
        engine.apply_move(current(runtime_of, game), 0, move)
    before = dump(runtime_of.db)

    response = post_move(client, game, page, move)

    assert response.status_code == 422
    assert html.escape(told(refused.value)) in response.get_data(as_text=True)
    assert dump(runtime_of.db) == before


@pytest.mark.parametrize(
    ("move", "seq", "status"),
    [
        ("not json", "0", 400),
        ("[1, 2]", "0", 400),
        ("", "0", 400),
        ('{"type": "pass"}', "not a number", 400),
        ('{"type": "pass"}', "0", 422),
        ('{"type": "teleport", "card": 4}', "0", 422),
    ],
)
def test_malformed_moves_are_refused_with_a_message_and_change_nothing(
    client, runtime_of, game, move, seq, status
) -> None:
    page = open_table(client, runtime_of, game, 0)
    before = dump(runtime_of.db)

    response = client.post(
        f"{table_path(game)}/move", data={**form_fields(page), "move": move, "seq": seq, "confirmed": "yes"}
    )

    assert response.status_code == status
    assert "Your turn" in response.get_data(as_text=True), "the table is shown again with the reason"
    assert dump(runtime_of.db) == before


@pytest.mark.parametrize("token", [None, "wrong-token"])
def test_a_post_without_the_sessions_csrf_token_is_refused_with_400(client, runtime_of, game, token) -> None:
    page = open_table(client, runtime_of, game, 0)
    fields = form_fields(page)
    if token is None:
        del fields["csrf_token"]
    else:
        fields["csrf_token"] = token
    before = dump(runtime_of.db)

    responses = [
        client.post(
            f"{table_path(game)}/move", data={**fields, "move": json.dumps(page_moves(page)[0]), "confirmed": "yes"}
        ),
        client.post(f"{table_path(game)}/settings", data={**fields, "notify_mode": "digest"}),
        client.post(f"{table_path(game)}/seen", data=fields),
    ]

    assert [r.status_code for r in responses] == [400, 400, 400]
    assert "This form has expired" in responses[0].get_data(as_text=True)
    assert dump(runtime_of.db) == before


def test_a_script_gets_json_results_and_errors(client, runtime_of, game) -> None:
    page = open_table(client, runtime_of, game, 0)
    fields = form_fields(page)
    headers = {"Accept": "application/json"}
    move = page_moves(page)[0]

    played = client.post(f"{table_path(game)}/move", data={**fields, "move": json.dumps(move)}, headers=headers)
    stale = client.post(
        f"{table_path(game)}/move", data={**fields, "submission_id": "other", "move": json.dumps(move)}, headers=headers
    )
    illegal = client.post(
        f"{table_path(game)}/move",
        data={**fields, "seq": "1", "submission_id": "x", "move": '{"type": "pass"}'},
        headers=headers,
    )
    unreadable = client.post(f"{table_path(game)}/move", data={**fields, "move": "{"}, headers=headers)
    no_csrf = client.post(f"{table_path(game)}/move", data={"move": "{}"}, headers=headers)

    assert played.status_code == 200 and played.get_json()["seq"] == 1 and not played.get_json()["replayed"]
    assert (stale.status_code, stale.get_json()["error"]) == (409, "stale_turn")
    assert (illegal.status_code, illegal.get_json()["error"]) == (409, "not_your_turn")
    assert (unreadable.status_code, unreadable.get_json()["error"]) == (400, "invalid_input")
    assert (no_csrf.status_code, no_csrf.get_json()["error"]) == (400, "csrf_failed")


def test_picking_a_gold_card_works_like_any_move(client, runtime_of) -> None:
    # Seed 0: the tunnel reaches the gold in round 1 and Ben picks first.
    state = play_until(engine.new_game(NAMES, seed=0), lambda g: g.phase == "gold", random.Random(0), dig_for_gold)
    picking = store_game(runtime_of, state)
    picker = engine.to_act(state)

    page = open_table(client, runtime_of, picking, picker)

    assert "Your turn: choose a gold card." in page
    picks = page_moves(page)
    assert picks and all(move["type"] == "pick_gold" for move in picks)
    assert post_move(client, picking, page, picks[0]).status_code == 303
    assert "You kept a gold card, worth " in client.get(table_path(picking)).get_data(as_text=True)


# -- settings and visits ---------------------------------------------------------------------------------------------


def test_the_seat_chooses_how_it_is_emailed(client, runtime_of, game) -> None:
    page = open_table(client, runtime_of, game, 1)

    response = client.post(f"{table_path(game)}/settings", data={**form_fields(page), "notify_mode": "digest"})

    assert response.status_code == 303
    assert runtime_of.seats.profile(game, 1).notify_mode == "digest"
    after = client.get(table_path(game)).get_data(as_text=True)
    assert "Saved: one email a day." in after and 'value="digest" checked' in after


def test_an_unknown_email_setting_is_refused_with_400(client, runtime_of, game) -> None:
    page = open_table(client, runtime_of, game, 1)

    response = client.post(f"{table_path(game)}/settings", data={**form_fields(page), "notify_mode": "never"})

    assert response.status_code == 400
    assert runtime_of.seats.profile(game, 1).notify_mode == "turn"


def test_a_visit_is_recorded_only_by_the_pages_post(client, runtime_of, game, clock) -> None:
    page = open_table(client, runtime_of, game, 1)
    client.get(f"{table_path(game)}/state.json")
    assert runtime_of.seats.profile(game, 1).last_seen_at is None

    response = client.post(f"{table_path(game)}/seen", headers={"X-CSRF-Token": form_fields(page)["csrf_token"]})

    assert response.status_code == 204
    assert runtime_of.seats.profile(game, 1).last_seen_at == clock.now()


def test_get_and_head_on_every_player_route_change_nothing(app: Flask, runtime_of, game, clock) -> None:
    client = app.test_client()
    token = seat_token(runtime_of, game, 0)
    links = bad_links(runtime_of, game, clock)
    fresh = seat_token(runtime_of, game, 0)
    before = dump(runtime_of.db)
    paths = [
        f"/play/{fresh}",
        table_path(game),
        f"{table_path(game)}/state.json",
        f"/play/{fresh}/state.json",
        f"/play/{token}",
        table_path("no-such-game"),
    ] + [f"/play/{t}" for t, _ in links.values()]
    # The replay, the round pages and the downloads (pbem/web/replay.py, deals.py), by link and by cookie.
    paths += [f"{base}{suffix}" for base in (f"/play/{fresh}", table_path(game)) for suffix in (
        "/replay", "/replay?step=0", "/replay.html", "/archive.json", "/rounds/1", "/rounds/1/deal.json")]

    for path in paths:
        client.get(path)
        client.head(path)

    assert dump(runtime_of.db) == before
    player_routes = {
        rule.rule
        for rule in app.url_map.iter_rules()
        if rule.endpoint.split(".")[0] in ("player", "deals", "replay") and "GET" in (rule.methods or ())
    }
    assert player_routes == {
        "/play/<token>",
        "/table/<game_id>",
        "/play/<token>/state.json",
        "/table/<game_id>/state.json",
    } | {
        f"{base}{suffix}"
        for base in ("/play/<token>", "/table/<game_id>")
        for suffix in ("/replay", "/replay.html", "/archive.json", "/rounds/<int:round_number>",
                       "/rounds/<int:round_number>/deal.json")
    }


def test_a_finished_game_shows_the_final_gold_the_winners_and_every_goal(client, runtime_of) -> None:
    state = play_until(engine.new_game(NAMES, seed=0), lambda g: g.phase == "over", random.Random(0), dig_for_gold)
    finished = store_game(runtime_of, state)
    final = engine.view(state, 0)["final"]
    best = max(final["scores"])

    page = open_table(client, runtime_of, finished, 0)

    winners = [NAMES[seat] for seat in final["winners"]]
    assert f"The game is over: {' and '.join(winners)} won with {best} nugget" in page
    assert "Final standings" in page and "Rounds played" in page
    assert page.count('class="cell goal shown"') == sum(not goal["revealed"] for goal in engine.view(state, 0)["goals"])
    assert page_moves(page) == []


def test_a_game_that_has_not_started_says_so(client, runtime_of, new_game) -> None:
    waiting = new_game(start=False)

    page = open_table(client, runtime_of, waiting, 0)

    assert "This game has not started yet." in page


def test_a_seat_to_act_that_looked_while_the_game_was_paused_has_its_moves_back_on_resume(
    client: FlaskClient, runtime_of: Runtime, game: str
) -> None:
    seat = runtime_of.games.current_state(game).to_act
    assert seat is not None
    runtime_of.turn_controls.pause(game, actor_email="host@example.org")
    paused = open_table(client, runtime_of, game, seat)  # drawn without moves, in this process
    runtime_of.turn_controls.resume(game, actor_email="host@example.org")

    resumed = client.get(table_path(game)).get_data(as_text=True)

    assert 'class="move-choice"' not in paused
    assert 'class="move-choice"' in resumed
