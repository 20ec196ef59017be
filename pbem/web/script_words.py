"""The words the pages' scripts show (play.js, chat.js, verify.js), in the reader's language.

A script holds no sentence of its own: every page carries one `<script type="application/json" id="script-words">`
block (templates/base.html) with these messages, translated when the page is drawn, and each script reads its words
from there by key. A message may name values the script fills in (`%(move)s`, as in Python); a message with a count
is given already counted for every count a script may need (`COUNTS`), since a language's plural rule is the
catalogue's to know, not the script's.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Flask
from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup

from pbem.i18n import current_language, ngettext, translations
from pbem.words.table import N_, NN_, NP_, Words

# What the scripts say, by the key they read it with.
WORDS = Words({
    # The turn page (play.js): the hint above the hand, as a card is chosen and its places light up.
    "hint_start": N_("Tap a card: where it can go lights up."),
    "hint_place": N_("Tap a lit place on the board, or discard it to pass."),
    "hint_place_or_turn": N_("Tap a lit place on the board (or turn the card around first), or discard it to pass."),
    "hint_player": N_("Tap a lit player, or discard it to pass."),
    "hint_cell": N_("Tap a lit card on the board, or discard it to pass."),
    "hint_in_front": N_("Lay it in front of you, or discard it to pass."),
    "hint_discard": N_("You can discard it face down to pass."),
    "hint_discard_why": N_("%(why)s You can discard it face down to pass."),
    "hint_second_card": N_("Tap a second card to discard with it."),
    "hint_remove": N_("Tap the lit card in front of you that the two discards remove."),
    # The confirm bar: the move asked about, or a choice of several, and the button that plays it.
    "confirm_move": N_("%(move)s?"),
    "confirm_which": N_("Which one?"),
    "confirm_play": N_("Play it"),
    "confirm_steal": N_("Steal it"),
    "confirm_pass": NP_("button", "Pass"),  # a button's verb: pass this turn
    # Table talk (chat.js): a line the script adds, and what went wrong sending one.
    "chat_you": N_("(you)"),
    "chat_by_email": N_("by email"),
    "chat_empty": N_("Write something first."),
    "chat_refused": N_("That message could not be sent."),
    "chat_offline": N_("The message could not be sent: check your connection and try again."),
    # A round's sealed deal, checked in the browser (verify.js).
    "verify_unable": N_(
        "This browser cannot compute SHA-256 on this page (it needs a secure connection); the command below does "
        "the same by hand."
    ),
    "verify_match": N_(
        "Match: these bytes give exactly the published fingerprint. This is the deal that was sealed before the "
        "round began."
    ),
    "verify_mismatch": N_(
        "No match: these bytes give %(digest)s, not the fingerprint above. Either the text was changed, or this is "
        "not the deal that was sealed."
    ),
})

# Messages with a count, each given for the counts 1 to COUNTS (a pass lays down at most three cards; a hand holds
# fewer than ten); a script asked for more takes the last.
COUNTED: dict[str, tuple[str, str]] = {
    "hint_pass_cards": NN_(
        "Tap up to %(num)d card to discard face down, then confirm.",
        "Tap up to %(num)d cards to discard face down, then confirm.",
    ),
}
COUNTS = 9

def script_words() -> dict[str, object]:
    """Every script's words in the reader's language: a message by key, a counted one by key and count."""
    words: dict[str, object] = dict(WORDS.items())
    for key, (singular, plural) in COUNTED.items():
        words[key] = {str(n): ngettext(singular, plural, n) for n in range(1, COUNTS + 1)}
    return words


# The block as last written in each language, with the catalogue it was written from: the words change only with
# the catalogue (compiled again, loaded again), and every page carries them.
_written: dict[str, tuple[object, Markup]] = {}


def script_words_block() -> Markup:
    """The JSON inside base.html's `<script type="application/json" id="script-words">` (safe in HTML)."""
    language = current_language()
    catalogue = translations(language)
    written = _written.get(language)
    if written is None or written[0] is not catalogue:
        written = (catalogue, htmlsafe_json_dumps(script_words(), dumps=_dumps))
        _written[language] = written
    return written[1]


def _dumps(value: object, **_options: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def init_app(app: Flask) -> None:
    app.jinja_env.globals["script_words"] = script_words_block
