"""The new words of a reply: the text above the quoted email, without signature, HTML or attachments.

Mail programs quote the email they answer in many ways; what is cut here:
- lines quoted with ">" (anywhere: an answer written between quoted lines keeps its own lines);
- everything from the attribution line on: "On Mon, 5 Jan 2026 at 09:00, Saboteur <...> wrote:" (Gmail,
  Apple Mail, Thunderbird; also wrapped over two lines, and in a few other languages), Outlook's
  "-----Original Message-----", a line of underscores, and a "From:" line followed by "Sent:", "Date:",
  "To:" or "Subject:" lines (Outlook's header block);
- a signature after the "-- " delimiter, and phone footers such as "Sent from my iPhone" at the end.

HTML-only mail is turned into text first (blockquotes become quoted lines); attachments are never read:
only the message's text body is (`EmailMessage.get_body`).
"""

from __future__ import annotations

import re
from email.message import EmailMessage, Message
from html.parser import HTMLParser

ATTRIBUTION = re.compile(
    r"^\s*("
    r"on\b.{0,400}\bwrote:"  # English: Gmail, Apple Mail, Thunderbird
    r"|le\b.{0,400}\ba écrit\s?:"  # French
    r"|am\b.{0,400}\bschrieb\b.{0,200}:"  # German
    r"|el\b.{0,400}\bescribió:"  # Spanish
    r"|il giorno\b.{0,400}\bha scritto:"  # Italian
    r"|op\b.{0,400}\bschreef\b.{0,200}:"  # Dutch
    r"|em\b.{0,400}\bescreveu:"  # Portuguese
    r")\s*$",
    re.IGNORECASE,
)
SEPARATORS = re.compile(
    r"^\s*(-{2,}\s*original message\s*-{2,}|-{2,}\s*forwarded message\s*-{2,}|_{10,}|-{10,})\s*$", re.IGNORECASE
)
OUTLOOK_HEADER = re.compile(r"^\s*\*?(from|von|de|van|da)\s*:\*?\s", re.IGNORECASE)
OUTLOOK_FIELDS = re.compile(
    r"^\s*\*?(sent|date|to|subject|cc|gesendet|datum|an|betreff|envoyé|à|objet|enviado|para|asunto)\s*:",
    re.IGNORECASE,
)
SIGNATURE_DELIMITER = re.compile(r"^--\s?$")
PHONE_FOOTERS = re.compile(
    r"^\s*("
    r"sent from my \S.*|sent from (outlook|mail|yahoo mail|proton ?mail|gmail)\b.*|get outlook for \S.*"
    r"|sent with \S.*|sent via \S.*|envoyé de mon \S.*|von meinem \S.*gesendet|enviado desde mi \S.*"
    r"|inviato da(l mio)? \S.*|verzonden met \S.*|enviado do meu \S.*"
    r")\s*$",
    re.IGNORECASE,
)
BLOCK_TAGS = frozenset({
    "address", "article", "aside", "blockquote", "dd", "div", "dl", "dt", "figcaption", "footer", "form", "h1",
    "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p", "pre", "section", "table",
    "tr", "ul",
})
HIDDEN_TAGS = frozenset({"head", "script", "style", "title", "template"})


def reply_text(message: EmailMessage) -> str:
    """The new text of a reply (possibly empty), from its plain-text body or else its HTML body."""
    body = message.get_body(preferencelist=("plain", "html"))
    if body is None:
        return ""
    content = _decoded(body)
    if body.get_content_subtype() == "html":
        text = html_to_text(content)
    else:
        flowed = str(body.get_param("format", "")).lower() == "flowed"
        text = _unflow(content, body) if flowed else content
    return strip_quoted(text)


def strip_quoted(text: str) -> str:
    """The lines of `text` above the quoted email and the signature."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    kept: list[str] = []
    for index, line in enumerate(lines):
        following = lines[index + 1] if index + 1 < len(lines) else ""
        if _starts_history(line, following, lines[index + 1 : index + 5]):
            break
        if SIGNATURE_DELIMITER.match(line):
            break
        if line.lstrip().startswith(">"):
            continue
        kept.append(line)
    while kept and (not kept[-1].strip() or PHONE_FOOTERS.match(kept[-1])):
        kept.pop()
    return "\n".join(kept).strip("\n")


def _starts_history(line: str, following: str, next_lines: list[str]) -> bool:
    if ATTRIBUTION.match(line) or SEPARATORS.match(line):
        return True
    if ATTRIBUTION.match(f"{line} {following}") and not ATTRIBUTION.match(following):
        return following.rstrip().endswith(":")  # "On ... Saboteur <" / "play+...> wrote:"
    return bool(OUTLOOK_HEADER.match(line)) and any(OUTLOOK_FIELDS.match(later) for later in next_lines)


def html_to_text(html: str) -> str:
    """Readable text of an HTML body: blocks on their own lines, quoted blocks as "> " lines, links as their text."""
    parser = _TextParser()
    parser.feed(html)
    parser.close()
    return parser.text()


class _TextParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self._lines: list[str] = []
        self._current: list[str] = []
        self._hidden = 0
        self._quoted = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in HIDDEN_TAGS:
            self._hidden += 1
        elif tag == "br":
            self._break()
        elif tag in BLOCK_TAGS:
            self._break()
            if tag == "blockquote":
                self._quoted += 1
            if tag == "hr":
                self._lines.append("-" * 10)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("br", "hr"):
            self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag in HIDDEN_TAGS:
            self._hidden = max(self._hidden - 1, 0)
        elif tag in BLOCK_TAGS:
            self._break()
            if tag == "blockquote":
                self._quoted = max(self._quoted - 1, 0)

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self._current.append(data)

    def _break(self) -> None:
        line = " ".join("".join(self._current).split())
        self._current = []
        if line:
            self._lines.append("> " * self._quoted + line)
        elif self._lines and self._lines[-1]:
            self._lines.append("")

    def text(self) -> str:
        self._break()
        return "\n".join(self._lines).strip("\n")


def _decoded(part: Message) -> str:
    """The part's text; an unknown or wrong charset degrades to replacement characters, never to an error."""
    try:
        content = part.get_content()  # type: ignore[attr-defined]
        if isinstance(content, str):
            return content
    except (LookupError, UnicodeError, KeyError, AttributeError):
        pass
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return ""
    charset = part.get_content_charset() or "utf-8"
    try:
        return payload.decode(charset, errors="replace")
    except LookupError:
        return payload.decode("utf-8", errors="replace")


def _unflow(text: str, part: Message) -> str:
    """RFC 3676 format=flowed: a line ending in a space continues on the next (quoted lines keep their own)."""
    delete_space = str(part.get_param("delsp", "")).lower() == "yes"
    lines: list[str] = []
    carry = ""
    for raw in text.replace("\r\n", "\n").split("\n"):
        line = raw[1:] if raw.startswith(" ") else raw  # space-stuffing
        if line.endswith(" ") and not SIGNATURE_DELIMITER.match(line) and not line.startswith(">"):
            carry += line[:-1] if delete_space else line
            continue
        lines.append(carry + line)
        carry = ""
    if carry:
        lines.append(carry)
    return "\n".join(lines)
