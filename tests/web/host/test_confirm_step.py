"""A host action is asked about once, on a page of its own: the action's button posts its form, the answer is
"Pause the game?" with a button that does it and a way back, and only that button's post (the same fields,
confirmed, with the CSRF token) changes anything. No tick box to forget, no error for a first click."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from flask.testing import FlaskClient

from pbem.runtime import Runtime
from tests.support.database import dump
from tests.support.games import PEOPLE
from tests.support.web import post, unchanged_but_rate_limits

HIDDEN = re.compile(r'<input type="hidden" name="([\w-]+)" value="([^"]*)">')
QUESTIONS = {
    "pause": ("Pause the game?", "Yes, pause the game"),
    "skip": ("Skip Ann's turn?", "Yes, skip the turn"),
    "extend": ("Extend the deadline?", "Yes, extend the deadline"),
    "end": ("End the game now?", "Yes, end the game"),
    "abandon": ("Abandon the game?", "Yes, abandon the game"),
    "seats/1/rotate": ("Send Ben a new link?", "Yes, send a new link"),
    "seats/1/resend": ("Email Ben their link again?", "Yes, email the link"),
    "seats/0/nudge": ("Remind Ann now?", "Yes, send the reminder"),
    "seats/1/auto-pass": ("Pass for Ben at each turn?", "Yes, pass for them"),
}


def question_form(page: str) -> tuple[str, dict[str, str]]:
    """The question page's form: where it posts and its hidden fields."""
    form = page.split('id="confirm-step"', 1)[1]
    action = re.search(r'<form method="post" action="([^"]+)"', form)
    assert action, page
    return html.unescape(action.group(1)), {name: html.unescape(value) for name, value in HIDDEN.findall(form)}


@pytest.mark.parametrize("path", sorted(QUESTIONS))
def test_an_action_posted_without_confirming_asks_first_and_changes_nothing(
    host: FlaskClient, runtime_of: Runtime, game_id: str, path: str
) -> None:
    before = dump(runtime_of.db)

    response = post(host, f"/host/games/{game_id}/{path}", hours="5", on="yes")

    page = html.unescape(response.get_data(as_text=True))
    title, yes = QUESTIONS[path]
    assert response.status_code == 200
    assert f'<h1 id="confirm-title">{title}</h1>' in page and f">{yes}</button>" in page
    assert f'<a class="button" href="/host/games/{game_id}" id="confirm-cancel">Cancel</a>' in page
    assert unchanged_but_rate_limits(before, dump(runtime_of.db))


def test_the_questions_yes_posts_the_same_fields_confirmed_and_does_it(
    host: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    deadline = runtime_of.turn_controls.status(game_id).deadline
    assert deadline is not None
    asked = post(host, f"/host/games/{game_id}/extend", hours="5").get_data(as_text=True)
    action, fields = question_form(asked)

    assert action == f"/host/games/{game_id}/extend"
    assert fields["hours"] == "5" and fields["confirm"] == "yes" and fields["csrf_token"]
    assert "The turn&#39;s deadline moves 5 hours later." in asked
    response = host.post(action, data=fields)

    assert response.status_code == 303
    assert runtime_of.turn_controls.status(game_id).deadline == deadline + timedelta(hours=5)


def test_the_yes_without_the_csrf_token_is_refused(host: FlaskClient, runtime_of: Runtime, game_id: str) -> None:
    action, fields = question_form(post(host, f"/host/games/{game_id}/pause").get_data(as_text=True))
    before = dump(runtime_of.db)

    response = host.post(action, data={name: value for name, value in fields.items() if name != "csrf_token"})

    assert response.status_code == 400
    assert unchanged_but_rate_limits(before, dump(runtime_of.db))
    assert not runtime_of.games.current_state(game_id).paused


def test_an_unknown_action_is_refused_without_a_question(host: FlaskClient, game_id: str) -> None:
    assert post(host, f"/host/games/{game_id}/explode").status_code == 400
    assert post(host, f"/host/games/{game_id}/seats/0/explode").status_code == 400
    assert post(host, f"/host/games/{game_id}/seats/9/rotate").status_code == 400


def test_another_hosts_game_gets_no_question(host: FlaskClient, runtime_of: Runtime) -> None:
    theirs = runtime_of.games.create_game(title="Not yours", players=PEOPLE, host_email="other@example.org")
    runtime_of.games.start_game(theirs)

    response = post(host, f"/host/games/{theirs}/pause")

    assert response.status_code == 403 and "Not yours" not in response.get_data(as_text=True)


def test_the_game_page_has_no_tick_box_left_to_forget(host: FlaskClient, game_id: str) -> None:
    page = host.get(f"/host/games/{game_id}").get_data(as_text=True)

    assert 'name="confirm"' not in page
    assert "<button type=\"submit\">Pause</button>" in page
