"""The pages' scripts hold no words of their own: every sentence play.js, chat.js and verify.js show comes from the
page's `#script-words` block (pbem/web/script_words.py), in the reader's language; English word for word as the
scripts said it before."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from flask.testing import FlaskClient

import engine
from pbem.i18n import in_language
from pbem.runtime import Runtime
from pbem.web.script_words import COUNTS, script_words
from tests.support.games import seat_token, store_game

pytestmark = pytest.mark.usefixtures("compiled_catalogues")

STATIC = Path(__file__).resolve().parents[2] / "pbem" / "web" / "static"
SCRIPTS = ("play.js", "chat.js", "verify.js", "replay.js")
LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\'')
COMMENT = re.compile(r"/\*.*?\*/|^\s*//[^\n]*|\s//\s[^\n]*", re.S | re.M)
BLOCK = re.compile(r'<script type="application/json" id="script-words">(.*?)</script>', re.S)
# Words a script says to the browser, never to a person: header and key names.
FOR_MACHINES = {"Accept", "Enter", "Escape", "use strict"}
# What the scripts said before they read the page's words: the English must not change by a letter.
ENGLISH = {
    "hint_start": "Tap a card: where it can go lights up.",
    "hint_place": "Tap a lit place on the board, or discard it to pass.",
    "hint_place_or_turn": "Tap a lit place on the board (or turn the card around first), or discard it to pass.",
    "hint_player": "Tap a lit player, or discard it to pass.",
    "hint_cell": "Tap a lit card on the board, or discard it to pass.",
    "hint_in_front": "Lay it in front of you, or discard it to pass.",
    "hint_discard": "You can discard it face down to pass.",
    "hint_discard_why": "%(why)s You can discard it face down to pass.",
    "hint_second_card": "Tap a second card to discard with it.",
    "hint_remove": "Tap the lit card in front of you that the two discards remove.",
    "confirm_move": "%(move)s?",
    "confirm_which": "Which one?",
    "confirm_play": "Play it",
    "confirm_steal": "Steal it",
    "confirm_pass": "Pass",
    "chat_you": "(you)",
    "chat_by_email": "by email",
    "chat_empty": "Write something first.",
    "chat_refused": "That message could not be sent.",
    "chat_offline": "The message could not be sent: check your connection and try again.",
    "verify_unable": "This browser cannot compute SHA-256 on this page (it needs a secure connection); the command "
                     "below does the same by hand.",
    "verify_match": "Match: these bytes give exactly the published fingerprint. This is the deal that was sealed "
                    "before the round began.",
    "verify_mismatch": "No match: these bytes give %(digest)s, not the fingerprint above. Either the text was "
                       "changed, or this is not the deal that was sealed.",
}


def literals(script: str) -> set[str]:
    source = COMMENT.sub("", (STATIC / script).read_text(encoding="utf-8"))
    return {double or single for double, single in LITERAL.findall(source)}


def is_prose(text: str) -> bool:
    """Words for a person: two words or more ("Which one?"), or one capitalised word ("Pass"); not a selector, a
    class list, a storage key or a header's name."""
    if text in FOR_MACHINES or re.search(r"[-=\[\]#.][a-z]|^[.#\[]", text):
        return False
    words = [token for token in text.split() if re.fullmatch(r"\(?[A-Za-z']+[.,:;?!)]*", token)]
    return len(words) >= 2 or bool(re.fullmatch(r"[A-Z][a-z]+[.?!]?", text.strip()))


def page_words(body: str) -> dict[str, object]:
    found = BLOCK.search(body)
    assert found, body[:300]
    assert "</" not in found.group(1)
    words: dict[str, object] = json.loads(found.group(1))
    return words


def test_no_script_holds_a_word_for_a_person() -> None:
    said = {script: sorted(text for text in literals(script) if is_prose(text)) for script in SCRIPTS}

    assert said == {script: [] for script in SCRIPTS}


def test_the_guard_sees_the_words_the_scripts_held_before() -> None:
    assert all(is_prose(text) for text in ("Which one?", "Pass", "Play it", ", or discard it to pass.",
                                             " (or turn the card around first)", " · by email"))
    assert not any(is_prose(text) for text in ("verify-result match", ".targets .target", "use strict", "state "))


def test_every_word_a_script_asks_for_is_on_the_page_and_every_word_on_the_page_is_asked_for() -> None:
    asked = {text for script in SCRIPTS for text in literals(script)
             if re.fullmatch(r"(hint|confirm|chat|verify)_[a-z_]+", text)}

    assert asked == set(script_words())


def test_the_english_words_are_the_ones_the_scripts_said() -> None:
    words = script_words()

    assert {key: words[key] for key in ENGLISH} == ENGLISH
    assert words["hint_pass_cards"] == {
        str(n): f"Tap up to {n} card{'s' if n != 1 else ''} to discard face down, then confirm."
        for n in range(1, COUNTS + 1)
    }


@pytest.mark.parametrize(("language", "said"), [
    ("de", {"confirm_play": "Ausspielen", "hint_player": "Tippe auf einen leuchtenden Spieler oder wirf die Karte "
            "ab, um zu passen.", "chat_empty": "Schreib zuerst etwas.", "confirm_pass": "Passen"}),
    ("ko", {"confirm_play": "내기", "hint_player": "불이 들어온 플레이어를 누르거나, 카드를 버리고 패스하세요.",
            "chat_empty": "먼저 메시지를 써 주세요.", "confirm_pass": "패스"}),
])
def test_the_words_are_in_the_readers_language_each_translated(language: str, said: dict[str, str]) -> None:
    english = script_words()
    with in_language(language):
        words = script_words()

    assert {key: words[key] for key in said} == said
    untranslated = [key for key, text in words.items() if text == english[key] and key != "confirm_move"]
    assert untranslated == []


@pytest.mark.parametrize(("language", "two", "three"), [
    ("de", "Tippe auf bis zu 2 Karten, die du verdeckt abwirfst, und bestätige dann.",
     "Tippe auf bis zu 3 Karten, die du verdeckt abwirfst, und bestätige dann."),
    ("ko", "뒷면으로 버릴 카드를 2장까지 누른 다음 확인하세요.", "뒷면으로 버릴 카드를 3장까지 누른 다음 확인하세요."),
])
def test_a_count_is_given_counted_in_the_readers_language(language: str, two: str, three: str) -> None:
    with in_language(language):
        counted = script_words()["hint_pass_cards"]

    assert isinstance(counted, dict)
    assert (counted["2"], counted["3"]) == (two, three)


@pytest.mark.parametrize("language", ["en", "de", "ko"])
def test_every_page_hands_its_scripts_the_words_in_its_readers_language(
    client: FlaskClient, runtime_of: Runtime, language: str
) -> None:
    game = store_game(runtime_of, engine.new_game(["Ann", "Ben", "Cat"], seed=1))
    with in_language(language):
        expected = script_words()
    headers = {"Accept-Language": language}

    home = client.get("/", headers=headers).get_data(as_text=True)
    turn_page = client.get(f"/play/{seat_token(runtime_of, game, 0)}", headers=headers,
                           follow_redirects=True).get_data(as_text=True)

    assert page_words(home) == expected
    assert 'id="table"' in turn_page
    assert page_words(turn_page) == expected


def test_the_words_block_is_read_before_any_script_runs() -> None:
    """The block closes base.html's <main>; every script is deferred, so it runs once the whole page is read (the
    chat's script is inside <main>, before the block)."""
    templates = Path(__file__).resolve().parents[2] / "templates"
    scripts = [tag for page in templates.rglob("*.html") for tag in re.findall(r"<script src=[^>]*>", page.read_text())]

    assert scripts
    assert [tag for tag in scripts if " defer" not in tag] == []
