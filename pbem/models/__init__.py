"""All models, imported here so `Base.metadata` knows every table (migrations and tests rely on it)."""

from pbem.models.base import Base
from pbem.models.chat import ChatMessage, InboundMail
from pbem.models.clocks import TurnClock
from pbem.models.fairness import RoundCommitment
from pbem.models.games import Game, GameStatus, HostAction, Seat, Snapshot, SnapshotIsAppendOnly
from pbem.models.limits import ConfirmedMailbox, RateLimitHit
from pbem.models.mail import MailThread, OutboxMessage

__all__ = [
    "Base", "Game", "GameStatus", "HostAction", "MailThread", "OutboxMessage", "RateLimitHit", "Seat", "Snapshot",
    "SnapshotIsAppendOnly", "RoundCommitment",
]
__all__ += ["ChatMessage", "InboundMail"]
__all__ += ["TurnClock"]
__all__ += ["ConfirmedMailbox"]
from pbem.models.hosting import AddressChange, HostSessionRecord, HostSignIn  # noqa: E402

__all__ += ["AddressChange", "HostSessionRecord", "HostSignIn"]
from pbem.models.players import (  # noqa: E402
    PlayerPreferences,
    PlayerSession,
    PlayerSignIn,
    SpectatorLink,
    SpectatorSubscription,
)

__all__ += ["PlayerPreferences", "PlayerSession", "PlayerSignIn", "SpectatorLink", "SpectatorSubscription"]
from pbem.models.invites import Invite, Joiner, Rematch, RematchPermission  # noqa: E402

__all__ += ["Invite", "Joiner", "Rematch", "RematchPermission"]
from pbem.models.notices import GameChannel, Notice, NotificationAddress  # noqa: E402

__all__ += ["GameChannel", "Notice", "NotificationAddress"]
