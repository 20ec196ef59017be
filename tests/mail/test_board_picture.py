"""The turn email's board picture: the page's drawing as a PNG, inline, showing only what everyone may see."""

from __future__ import annotations

import re
import struct
import zlib
from collections.abc import Mapping
from email.message import EmailMessage
from html.parser import HTMLParser
from typing import Any

import engine
from pbem.drawing.board_svg import board_svg, frame_of
from pbem.drawing.card_art import CARD_H, CARD_W
from pbem.mail.deliver import Deliverer
from pbem.runtime import Runtime, board_painter
from tests.support.games import Arranged
from tests.support.mail import SmtpServer, compose_waiting_mail, mailbox
from tests.support.tables import TO_THE_GOALS, arrange, card_in_hand

LABEL = 24  # the drawing's room for coordinates (pbem/drawing/board_svg.py)


def decoded_png(data: bytes) -> tuple[int, int, bytes]:
    """Width, height and raw scanlines of a PNG, every chunk's CRC checked (a PNG that decodes, or an assertion)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, chunks = 8, []
    while at < len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length:at + 12 + length])
        assert zlib.crc32(kind + body) == crc, f"bad CRC in {kind!r}"
        chunks.append((kind, body))
        at += 12 + length
    width, height, depth, colour, *_ = struct.unpack(">IIBBBBB", chunks[0][1])
    assert chunks[0][0] == b"IHDR" and chunks[-1][0] == b"IEND"
    raw = zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT"))
    channels = {2: 3, 6: 4}[colour]
    assert depth == 8 and len(raw) == height * (1 + width * channels)
    return width, height, raw


def natural_size(view: Mapping[str, Any]) -> tuple[int, int]:
    frame = frame_of(view)
    return LABEL + frame.columns * CARD_W, LABEL + frame.rows * CARD_H


def style_of(attributes: list[tuple[str, str | None]]) -> dict[str, str]:
    style = dict(attributes).get("style") or ""
    pairs = (declaration.split(":", 1) for declaration in style.split(";") if ":" in declaration)
    return {name.strip(): value.strip() for name, value in pairs}


class PictureStyle(HTMLParser):
    """The colour of the board picture's fallback text (its own, or the one it inherits) and its background."""

    VOID = frozenset({"img", "br", "meta", "hr", "input", "link"})

    def __init__(self) -> None:
        super().__init__()
        self.colours: list[str | None] = []
        self.found: tuple[str, str] | None = None
        self.alt = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        style = style_of(attrs)
        colour = style.get("color") or next((c for c in reversed(self.colours) if c), "#000000")
        if tag == "img" and (dict(attrs).get("src") or "").startswith("cid:board."):
            self.found = (colour, style.get("background-color") or style.get("background", "#ffffff"))
            self.alt = dict(attrs).get("alt") or ""
        if tag not in self.VOID:
            self.colours.append(style.get("color"))

    def handle_endtag(self, tag: str) -> None:
        if tag not in self.VOID and self.colours:
            self.colours.pop()


def contrast(foreground: str, background: str) -> float:
    """WCAG 2's contrast ratio of two #rrggbb colours."""
    def luminance(colour: str) -> float:
        channels = [int(colour[at:at + 2], 16) / 255 for at in (1, 3, 5)]
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    lighter, darker = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def one_build_to_go(runtime: Runtime, arranged_game: Arranged) -> tuple[str, engine.Game]:
    """Ann builds a card; Bo's turn email is queued."""
    state = arrange(4, board=TO_THE_GOALS, hands={0: ["straight_ew"]}, turn=0)
    game_id = arranged_game(state)
    seq = runtime.games.current_state(game_id).seq
    runtime.games.submit_move(game_id, 0, {"type": "play", "card": card_in_hand(state, 0, "straight_ew"), "x": 7,
                                           "y": 0, "rotated": False}, seq, "m-0")
    return game_id, runtime.games.engine_state(game_id)[0]


def test_the_turn_email_carries_the_public_board_as_an_inline_png_its_html_shows(
    smtp_runtime: Runtime, smtp_deliverer: Deliverer, smtp_server: SmtpServer, arranged_game: Arranged
) -> None:
    _, state = one_build_to_go(smtp_runtime, arranged_game)
    to_act = engine.to_act(state)
    assert to_act is not None

    smtp_deliverer.run()
    [turn] = [mail.message for mail in smtp_server.received
              if f"{state.players[to_act].lower()}@example.org" in mail.rcpt_tos and "Your turn" in
              (mail.message.get_body(("plain",)) or EmailMessage()).get_content()]

    html = turn.get_body(("html",))
    assert html is not None
    [picture] = [part for part in turn.walk() if part.get_content_type() == "image/png"]
    content_id = picture["Content-ID"].strip("<>")
    assert f'src="cid:{content_id}"' in html.get_content()
    assert turn.get_content_type() == "multipart/alternative"
    assert any(part.get_content_type() == "multipart/related" for part in turn.walk())
    data = picture.get_content()
    assert data == board_painter().public_board(state)
    assert decoded_png(data)[:2] == natural_size(engine.view(state, None))


def test_the_picture_is_the_pages_drawing_of_the_public_view_whoever_asks() -> None:
    state = arrange(4, board=TO_THE_GOALS, hands={0: ["straight_ew"]}, turn=0)
    painter = board_painter()

    public = painter.public_board(state)

    assert painter.svg(engine.view(state, None)).count("<svg ") == 1
    assert str(board_svg(engine.view(state, None))) in painter.svg(engine.view(state, None)).replace(
        ' xmlns="http://www.w3.org/2000/svg"', "", 1
    )
    assert decoded_png(public)[:2] == natural_size(engine.view(state, None))
    # Two seats who may see the same board get the same bytes (nothing of either seat is in it).
    assert painter.png(engine.view(state, None)) == public


def test_twin_games_differing_only_in_hidden_information_give_the_same_picture() -> None:
    """Other roles, hands, draw pile, where the gold lies and a goal seen with a map: the same public picture."""
    state = arrange(4, board=TO_THE_GOALS, hands={0: ["straight_ew"]}, turn=0, gold=(8, 2),
                    roles=["digger", "digger", "saboteur", "digger"])
    twin = arrange(4, seed=7, board=TO_THE_GOALS, hands={0: ["cross"]}, turn=0, gold=(8, -2),
                   roles=["saboteur", "digger", "digger", "digger"])
    twin.peeks[0] = [(8, -2)]
    assert twin.to_dict() != state.to_dict()
    painter = board_painter()

    assert painter.public_board(twin) == painter.public_board(state)
    # The seat's own view would show the goal it saw: the picture is not drawn from it.
    assert painter.png(engine.view(twin, 0)) != painter.public_board(twin)


def test_a_turn_email_lists_the_hand_only_for_a_seat_that_asked(runtime: Runtime, arranged_game: Arranged) -> None:
    state = arrange(4, board=TO_THE_GOALS, turn=0)
    game_id = arranged_game(state)
    runtime.seats.set_hand_in_email(game_id, 1, True)
    assert runtime.seats.profile(game_id, 2).hand_in_email is False  # off unless asked

    hands = {}
    for seat in (0, 1):  # seat 1's turn email is written, then seat 2's
        current, seq = runtime.games.engine_state(game_id)
        runtime.games.submit_move(game_id, seat, {"type": "pass", "cards": [current.hands[seat][0]]}, seq, f"m-{seat}")
        compose_waiting_mail(runtime)
        after, _ = runtime.games.engine_state(game_id)
        hands[seat + 1] = ", ".join(card["label"] for card in engine.view(after, seat + 1)["you"]["hand"])
    texts = {row.to_address: (row.body_text or "", row.body_html or "") for row in mailbox(runtime, "your_turn")}
    asked = texts[f"{state.players[1].lower()}@example.org"]
    not_asked = texts[f"{state.players[2].lower()}@example.org"]

    assert f"Your hand: {hands[1]}." in asked[0] and "Your hand:</strong>" in asked[1]
    assert "Your hand" not in not_asked[0] + not_asked[1]


def test_the_pictures_fallback_text_is_light_and_readable_on_the_dark_board_box(
    runtime: Runtime, arranged_game: Arranged
) -> None:
    """A client that blocks pictures shows the alt text in the picture's own box, on the board's dark colour."""
    one_build_to_go(runtime, arranged_game)
    [turn] = mailbox(runtime, "your_turn")

    picture = PictureStyle()
    picture.feed(turn.body_html)

    assert picture.found is not None and picture.alt.startswith("The board: ")
    colour, background = picture.found
    assert re.fullmatch(r"#[0-9a-f]{6}", colour) and re.fullmatch(r"#[0-9a-f]{6}", background)
    assert contrast(colour, background) >= 7  # WCAG AAA for text of any size
