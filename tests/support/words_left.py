"""Finding English left in a page or an email written in another language.

`visible_words` keeps what a reader sees or hears: the text of the page (not its scripts or styles), the alternative
texts, titles, labels and placeholders, a button's words and the words the page hands its script. `english_left`
then finds what is still English: in Korean any word of Latin letters that is not a name the product keeps in every
language; in German (written in Latin letters too) the small English words no German sentence holds.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

# Attributes a reader sees or a screen reader says.
SPOKEN_ATTRIBUTES = {"alt", "title", "aria-label", "placeholder", "aria-description"}
# What is no one's words: a link, an address, a time zone's name, a card's code, a figure.
NOT_WORDS = re.compile(
    r"%\(\w+\)[sd]|\b[\w-]+\.(?:json|html|toml|txt|eml)\b|\b[a-z][a-z0-9+.-]*://\S+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\b[A-Z][a-z]+/[A-Za-z_]+(?:/[A-Za-z_]+)?\b|\b[0-9a-f]{16,}\b"
)
# Names the product keeps in every language: services a notification goes to, formats, the time standard, a reply's
# mark, keys as printed on a keyboard, a command, a computer player's name.
KEPT = frozenset({
    "UTC", "GMT", "JSON", "SVG", "PNG", "HTML", "CSV", "SMTP", "IMAP", "URL", "URLs", "ntfy", "Apprise", "Discord",
    "Matrix", "Telegram", "Pushover", "Signal", "Slack", "Gotify", "json", "https", "http", "www", "mailto", "Saboteur",
    "Deutsch", "English", "Chromium", "Firefox", "Safari", "ID", "PGP", "OK", "SHA", "Board", "Game", "Arena",
    "Re", "Home", "End", "sha256sum", "Bot", "TOML",
})
# Elements whose text is for machines or typed as it stands: code, keys, commands.
CODE = {"code", "kbd", "samp", "pre", "textarea"}
# Words of English that no German sentence holds (German shares the alphabet, so its words cannot be told apart one
# by one: these can).
ENGLISH_ONLY = frozenset({
    "the", "your", "you", "and", "is", "are", "to", "of", "with", "this", "that", "has", "have", "be", "it", "for",
    "not", "who", "what", "when", "by", "or", "from", "at", "game", "games", "card", "cards", "round", "rounds",
    "play", "played", "turn", "seat", "here", "there", "their", "they", "been", "email", "emails", "every", "each",
    "back", "yet", "nothing", "now", "open", "choose", "board", "goal", "waiting",
})


class VisibleWords(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.words: list[str] = []
        self._skipping: list[str] = []
        self._script_words = False
        self._zones = False  # inside a list of time zones

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for name in SPOKEN_ATTRIBUTES & values.keys():
            self.words.append(values[name] or "")
        if tag == "input" and values.get("type") in ("submit", "button") and values.get("value"):
            self.words.append(values["value"] or "")
        if tag == "select":
            self._zones = "zone" in (values.get("name") or "") + (values.get("id") or "")
        if tag in ("script", "style") or tag in CODE:
            self._skipping.append(tag)
            self._script_words = tag == "script" and values.get("type") == "application/json"

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._zones = False
        if self._skipping and self._skipping[-1] == tag:
            self._skipping.pop()
            self._script_words = False

    def handle_data(self, data: str) -> None:
        if self._zones and self.lasttag == "option":
            return  # a time zone's IANA name
        if not self._skipping:
            self.words.append(data)
        elif self._script_words:
            self.words.extend(_strings_of(_json(data)))


def _json(data: str) -> object:
    try:
        return json.loads(data)
    except ValueError:
        return None


def _strings_of(value: object) -> list[str]:
    """The words a page hands its script: the values of its JSON (never the keys, which are the script's)."""
    if isinstance(value, str):
        return [visible_words(value)] if "<" in value else [value]  # a piece of a page (the replay's steps)
    if isinstance(value, dict):
        return [text for item in value.values() for text in _strings_of(item)]
    if isinstance(value, list):
        return [text for item in value for text in _strings_of(item)]
    return []


def visible_words(html: str) -> str:
    parser = VisibleWords()
    parser.feed(html)
    parser.close()
    return " ".join(" ".join(parser.words).split())


def english_left(text: str, language: str, also_kept: frozenset[str] = frozenset()) -> list[str]:
    """The English words in `text` (with a little of their surroundings, to find them by), for a text written in
    `language` ("ko" or "de"). Names (people, the game's title) are passed in `also_kept`."""
    text = NOT_WORDS.sub(" ", text.replace("\u00ad", ""))  # soft hyphens (pbem/i18n/hyphens.py) break no word
    found = []
    # German: whole words (an umlaut is a letter of the word); Korean: any run of Latin letters (a particle follows
    # a name or a command directly: "Ann님", "sha256sum을").
    words = r"[^\W\d_]+" if language == "de" else r"[A-Za-z][A-Za-z0-9']*"
    for match in re.finditer(words, text):
        word = match.group(0)
        if word in KEPT or word in also_kept or word.title() in KEPT:  # a kept name in capitals (CSS's uppercase)
            continue
        english = word.lower() in ENGLISH_ONLY if language == "de" else len(word) > 1
        if english:
            found.append(f"{word} ({text[max(0, match.start() - 12):match.end() + 12].strip()})")
    return found
