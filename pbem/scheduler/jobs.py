"""The scheduler's job list: computer turns, mail, chat emails, the sweep (reminders, deadlines, digests), replies."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from pbem.config import Config
from pbem.mail.imap_poll import MailboxUnavailable
from pbem.runtime import Runtime
from pbem.service.letters.chat_mail import queue_due_chat_emails
from pbem.service.turns.bots import play_due_bot_turns


@dataclass(frozen=True)
class Job:
    id: str
    description: str
    run: Callable[[Runtime], object]
    interval: timedelta


def bot_turns(runtime: Runtime) -> int:
    delay = timedelta(seconds=runtime.config.scheduler.bot_delay_seconds)
    return play_due_bot_turns(runtime.db, runtime.clock, runtime.games, delay)


def deliver_mail(runtime: Runtime) -> int:
    """Send the mail that is due; returns how many emails went out."""
    return runtime.deliverer().run().sent


def send_notifications(runtime: Runtime) -> int:
    """Send the notifications that are due (phones, chats, a game's channel); returns how many went."""
    return runtime.notice_sender().run().sent


def chat_emails(runtime: Runtime) -> int:
    """Queue the chat emails that are due (seats that asked for them; at most one per 15 minutes each)."""
    return queue_due_chat_emails(runtime.db, runtime.clock, runtime.games.mail)


def sweep(runtime: Runtime) -> int:
    """Reminders, deadline warnings, deadlines and daily digests that are due; returns how many were handled."""
    return runtime.sweep.run().total


def receive_replies(runtime: Runtime) -> int:
    """Poll the reply mailbox (`mail.imap`); an unreachable mailbox is a warning, tried again next time."""
    try:
        return runtime.poller().poll().handled
    except MailboxUnavailable as exc:
        logging.getLogger(__name__).warning("replies not received: %s", exc)
        return 0


def jobs(config: Config) -> list[Job]:
    every = timedelta(seconds=config.scheduler.interval_seconds)
    return [
        Job(id="bot_turns", description="computer players take their due turns", run=bot_turns,
            interval=timedelta(seconds=config.scheduler.bot_interval_seconds)),
        Job(
            id="deliver_mail",
            description="send the email that is due",
            run=deliver_mail,
            interval=timedelta(seconds=config.mail.deliver_interval_seconds),
        ),
        Job(
            id="send_notifications",
            description="send the notifications that are due",
            run=send_notifications,
            interval=timedelta(seconds=config.mail.deliver_interval_seconds),
        ),
        Job(id="chat_emails", description="email table talk to seats that asked", run=chat_emails, interval=every),
        Job(
            id="sweep",
            description="send due reminders and warnings, apply deadlines, queue daily digests",
            run=sweep,
            interval=timedelta(seconds=config.scheduler.sweep_interval_seconds),
        ),
    ] + ([Job(
        id="receive_replies",
        description="post replies from the reply mailbox to the chat",
        run=receive_replies,
        interval=timedelta(seconds=config.mail.imap.poll_interval_seconds),
    )] if config.mail.imap.host else [])
