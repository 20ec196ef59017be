"""The promise, checked from the database and the relay after a fault run: nothing lost, nothing twice.

- moves: every move a client was told was played is one snapshot, each game's snapshots are 0..current with no
  gap, and no snapshot of a person's move exists that no client was told about (a move applied twice would be
  two snapshots for one submission id: the unique index forbids it, the count would show it);
- mail: nothing left queued or sending, nothing dropped but turn mail whose decision was taken first, and every
  row marked sent reached the relay once, at its address (received twice: "doubled"; never: "lost");
- no 5xx once the fault was over.
"""

from __future__ import annotations

import collections
import time
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Figures:
    games: int = 0
    finished: int = 0
    moves_acknowledged: int = 0
    player_snapshots: int = 0
    server_snapshots: int = 0
    snapshot_gaps: int = 0
    mail_by_status: dict[str, int] = field(default_factory=dict)
    mail_received: int = 0
    mail_lost: int = 0
    mail_doubled: int = 0
    mail_doubled_message_ids: int = 0  # the same Message-ID received twice (a client shows it once)
    wrongly_dropped: int = 0
    problems: list[str] = field(default_factory=list)

    def line(self) -> str:
        return (f"games {self.games} (finished {self.finished}); moves acknowledged {self.moves_acknowledged}, "
                f"player snapshots {self.player_snapshots}, server snapshots {self.server_snapshots}, "
                f"gaps {self.snapshot_gaps}; mail {self.mail_by_status}, received {self.mail_received}, "
                f"lost {self.mail_lost}, doubled {self.mail_doubled}")


def wait_for_outbox(runtime: Any, timeout: float) -> dict[str, int]:
    """Until nothing is queued or sending (or `timeout` seconds): the outbox's rows by status."""
    deadline = time.monotonic() + timeout
    while True:
        counts = outbox_counts(runtime)
        if (not counts.get("queued") and not counts.get("sending")) or time.monotonic() > deadline:
            return counts
        time.sleep(0.5)


def outbox_counts(runtime: Any) -> dict[str, int]:
    from sqlalchemy import func, select

    from pbem.models import OutboxMessage

    with runtime.db.read() as session:
        return dict(session.execute(select(OutboxMessage.status, func.count()).group_by(OutboxMessage.status)).all())


def check(runtime: Any, received: list[tuple[str, str]], game_ids: list[str], moves_acknowledged: int,
          *, expect_finished: bool = False, may_fail: set[str] = frozenset()) -> Figures:  # type: ignore[assignment]
    from sqlalchemy import func, or_, select

    from pbem.mail.deliver import STALE_REASON
    from pbem.models import Game, GameStatus, OutboxMessage, Snapshot

    figures = Figures(games=len(game_ids), moves_acknowledged=moves_acknowledged)
    with runtime.db.read() as session:
        games = session.execute(select(Game.id, Game.public_id, Game.status, Game.current_seq)
                                .where(Game.public_id.in_(game_ids))).all()
        figures.finished = sum(1 for game in games if game.status == GameStatus.FINISHED)
        seqs: dict[int, list[int]] = collections.defaultdict(list)
        for game_pk, seq in session.execute(select(Snapshot.game_id, Snapshot.seq).order_by(Snapshot.game_id,
                                                                                              Snapshot.seq)):
            seqs[game_pk].append(seq)
        figures.snapshot_gaps = sum(1 for game in games if seqs[game.id] != list(range((game.current_seq or 0) + 1)))
        by_source = dict(session.execute(select(Snapshot.source, func.count()).group_by(Snapshot.source)).all())
        figures.player_snapshots = by_source.get("player", 0)
        figures.server_snapshots = by_source.get("server", 0)
        figures.mail_by_status = dict(session.execute(
            select(OutboxMessage.status, func.count()).group_by(OutboxMessage.status)).all())
        sent = [(to.lower(), message_id) for to, message_id in session.execute(
            select(OutboxMessage.to_address, OutboxMessage.message_id).where(OutboxMessage.status == "sent"))]
        failed = session.execute(select(OutboxMessage.to_address, OutboxMessage.kind)
                                 .where(OutboxMessage.status == "failed")).all()
        figures.wrongly_dropped = session.scalar(select(func.count()).where(
            OutboxMessage.status == "dropped",
            or_(OutboxMessage.drop_when_stale.is_(False), OutboxMessage.last_error != STALE_REASON),
        )) or 0
    expected, got = collections.Counter(sent), collections.Counter(received)
    figures.mail_received = len(received)
    figures.mail_lost = sum((expected - got).values())
    figures.mail_doubled = sum((got - expected).values())
    figures.mail_doubled_message_ids = sum(count - 1 for count in got.values() if count > 1)

    problems = figures.problems
    if len(games) != len(game_ids):
        problems.append(f"{len(game_ids) - len(games)} games are missing")
    if expect_finished and figures.finished != len(game_ids):
        problems.append(f"{len(game_ids) - figures.finished} of {len(game_ids)} games did not finish")
    if figures.snapshot_gaps:
        problems.append(f"{figures.snapshot_gaps} games have gaps in their snapshots")
    if figures.player_snapshots != moves_acknowledged:
        problems.append(f"{figures.player_snapshots} player moves stored, {moves_acknowledged} acknowledged")
    waiting = figures.mail_by_status.get("queued", 0) + figures.mail_by_status.get("sending", 0)
    if waiting:
        problems.append(f"{waiting} emails still waiting in the outbox")
    unexpected_failures = [(to, kind) for to, kind in failed if to.lower() not in may_fail]
    if unexpected_failures:
        problems.append(f"{len(unexpected_failures)} emails failed, e.g. {unexpected_failures[0]}")
    if figures.wrongly_dropped:
        problems.append(f"{figures.wrongly_dropped} emails dropped that should have gone")
    if figures.mail_lost:
        problems.append(f"{figures.mail_lost} emails marked sent never reached the relay")
    if figures.mail_doubled:
        problems.append(f"{figures.mail_doubled} emails reached the relay twice or unrecorded")
    return figures
