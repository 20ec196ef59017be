"""The turn email's picture of the board: the turn page's own SVG drawing, rasterized to PNG on the server.

Email clients show no inline SVG, so the board the page draws (`pbem/drawing/board_svg.py`, handed in by the runtime:
the letters do not reach up into the web layer) is rasterized by resvg with the page's stylesheet. Only the public
view is drawn (`engine.view(state, None)`): no hand, role, map peek or gold, and two seats get the same bytes.

Nothing is stored: the outbox row names the snapshot it was queued at, and the picture is drawn from that snapshot
whenever the deliverer builds the message (`pictures`); the drawing is deterministic, so a retry sends the same bytes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import resvg_py
from sqlalchemy import select
from sqlalchemy.orm import Session

import engine
from pbem.mail.message import InlineImage
from pbem.models import OutboxMessage, Snapshot

# The page's drawing of a view's board, as SVG markup (pbem.drawing.board_svg.board_svg).
DrawBoard = Callable[[Mapping[str, Any]], str]
BACKGROUND = "#2e2118"  # the page's board-wrap
SVG_NAMESPACE = 'xmlns="http://www.w3.org/2000/svg"'
# The emails whose HTML part shows the board.
WITH_BOARD = frozenset({"your_turn"})


def board_content_id(message_id: str) -> str:
    """The picture's Content-ID, unique with its message: "board.<local part>@<domain>" (no angle brackets)."""
    return f"board.{message_id.strip('<>')}"


@dataclass(frozen=True)
class BoardPainter:
    draw: DrawBoard
    stylesheet: str  # the page's CSS, whose rules colour the drawing's classes

    def svg(self, view: Mapping[str, Any]) -> str:
        """The page's drawing as a standalone SVG document."""
        markup = str(self.draw(view))
        return markup if SVG_NAMESPACE in markup else markup.replace("<svg ", f"<svg {SVG_NAMESPACE} ", 1)

    def png(self, view: Mapping[str, Any]) -> bytes:
        """The board at its natural size (one SVG unit, one pixel)."""
        return bytes(resvg_py.svg_to_bytes(svg_string=self.svg(view), style_sheet=self.stylesheet,
                                           background=BACKGROUND))

    def public_board(self, state: engine.Game) -> bytes:
        """What every seat may see of the board (the public view), whoever the email is to."""
        return self.png(engine.view(state, None))

    def pictures(self, session: Session, row: OutboxMessage) -> tuple[InlineImage, ...]:
        """The inline pictures of an outbox row: the board of the snapshot a turn email was queued at."""
        if row.kind not in WITH_BOARD or row.game_id is None or row.game_seq is None:
            return ()
        state = session.scalar(
            select(Snapshot.state).where(Snapshot.game_id == row.game_id, Snapshot.seq == row.game_seq)
        )
        if state is None:
            return ()
        data = self.public_board(engine.Game.from_dict(state))
        return (InlineImage(content_id=board_content_id(row.message_id), data=data, filename="board.png"),)
