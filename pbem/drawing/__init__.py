"""The game drawn as SVG: pure functions of a view, below the service, shared by the pages and the emails.

`card_art` draws one card, `board_svg` the table; `board.css` colours the classes they draw. The pages link that
stylesheet (served by `pbem.web.drawing_styles`), and the turn email's board picture is rasterized with it.
This package imports nothing from the web, the service or the post office.
"""

from __future__ import annotations

from pathlib import Path

STYLESHEET = Path(__file__).parent / "board.css"
