"""The game service: the only code that creates games, starts them and turns moves into snapshots.

Web requests, the command line, the scheduler and computer players all come through here, so every
change to a game is validated the same way and recorded the same way: one append-only snapshot per
decision, with the emails it causes queued in the same transaction. Each job has its own module.
"""

from __future__ import annotations

from pbem.service.turns.links import Links
from pbem.service.turns.moving import Moving
from pbem.service.turns.reading import Reading
from pbem.service.turns.rollback import RollingBack
from pbem.service.turns.starting import Starting


class GameService(Starting, Moving, RollingBack, Reading, Links):
    """Creating and starting (`starting.py`), moves and timeouts (`moving.py`), rollback (`rollback.py`), reading
    (`reading.py`) and links (`links.py`), over one core that records every decision (`recording.py`)."""

