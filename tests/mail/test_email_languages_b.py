"""The turn email and the round digest in their reader's language: at one table a Korean seat's turn email is Korean
while the others' stay English, and a German game's round digest is German from its greeting to its button. The
words that come from elsewhere (the log's lines, dates) are theirs to translate; what is checked here is the
template's own: the inbox line, the sentences of the text and HTML parts, the button."""

from __future__ import annotations

import pytest

import engine
from pbem.runtime import Runtime
from tests.support.games import Arranged, NewGame, play, play_until_turn_of
from tests.support.mail import bodies, flat, mailbox
from tests.support.tables import TO_THE_GOALS, arrange, card_in_hand

pytestmark = pytest.mark.usefixtures("compiled_catalogues")


def ann_reaches_the_gold(runtime: Runtime, arranged_game: Arranged, **options: str) -> str:
    """Ann lays the last card to the gold in round 1 and the gold cards are picked (tests/support/inbox.py's
    round), in a game made with `options`."""
    state = arrange(4, board=TO_THE_GOALS, hands={0: ["straight_ew"]}, gold=(8, 0), turn=0,
                    roles=["digger", "digger", "saboteur", "digger"])
    game_id = arranged_game(state, **options)
    play(runtime, game_id, 0, {"type": "play", "card": card_in_hand(state, 0, "straight_ew"), "x": 7, "y": 0,
                               "rotated": False})
    while (current := runtime.games.engine_state(game_id)[0]).phase == engine.GOLD_PICK:
        seat = engine.to_act(current)
        assert seat is not None
        play(runtime, game_id, seat, {"type": "pick_gold", "value": max(current.offer)})
    return game_id


def test_a_korean_seats_turn_email_is_korean_and_the_others_stay_english(runtime: Runtime, new_game: NewGame) -> None:
    game_id = new_game(start=False)
    runtime.seat_languages.choose(game_id, 1, "ko")
    runtime.games.start_game(game_id)
    play_until_turn_of(runtime, game_id, 1)
    ben = mailbox(runtime, "your_turn", to="ben@example.org")[-1]  # composed now, as the deliverer would
    play_until_turn_of(runtime, game_id, 0)  # Ann's turn, in English
    ann = mailbox(runtime, "your_turn", to="ann@example.org")[-1]
    text, html = flat(ben.body_text), ben.body_html or ""

    assert text.startswith("내 차례")  # the inbox line
    assert "Ben 님, 안녕하세요." in text
    assert "“Test mine” 1라운드, 내 차례예요." in text
    assert "여기에서 내 차례를 두세요" in text  # the link's label
    assert "<strong>내 차례예요</strong>" in html
    assert ">내 차례 두기</a>" in html  # the button
    for english in ("Hello", "It is your turn", "your last turn", "Play your turn", "Please play by"):
        assert english not in text and english not in html, english
    assert '"Test mine"' in (ann.body_text or "") and "It is your turn in round 1" in flat(ann.body_text)


def test_a_german_games_round_digest_is_german(runtime: Runtime, arranged_game: Arranged) -> None:
    game_id = ann_reaches_the_gold(runtime, arranged_game, language="de")

    [(_, text, html)] = bodies(runtime, game_id, "ann@example.org", "round_digest")
    said = flat(text)

    assert said.startswith("Runde 1 ist vorbei: ")  # the inbox line
    assert "Hallo Ann," in said
    assert "Runde 1 von „Test mine“ ist vorbei, und die Rollen sind aufgedeckt." in said
    assert "Dein Gold: in dieser Runde hast du " in said
    assert "Goldkarten bisher (was jede Karte wert ist, bleibt bis zum Spielende geheim):" in said
    assert "Ann (du): 2" in said  # Ann's line in the standings
    assert "Zum Tisch" in said
    assert "<strong>Dein Gold:</strong>" in html and ">Zum Tisch</a>" in html
    for english in ("Hello", "is over, and the roles", "Your gold", "So far you hold", "Gold cards so far",
                    "Look at the table"):
        assert english not in said and english not in html, english


def test_an_english_round_digest_is_as_it_was(runtime: Runtime, arranged_game: Arranged) -> None:
    game_id = ann_reaches_the_gold(runtime, arranged_game)

    [(_, text, _)] = bodies(runtime, game_id, "ann@example.org", "round_digest")

    assert 'Round 1 of "Test mine" is over, and the roles are revealed.' in flat(text)
    assert "Your gold: this round you received " in flat(text)
