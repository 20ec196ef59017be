"""An inbound SMTP listener (aiosmtpd), for operators who point the reply domain's MX at this server.

`pbem mail listen --host --port` runs it. It accepts mail only for the reply mailbox and its plus
addresses (anything else gets "550 no such mailbox" at RCPT), refuses mail larger than
`mail.inbound_max_kb` before reading it (aiosmtpd's size limit: "552"), and hands each message to
the receiver (`pbem/service/talk/replies.py`), which posts it, bounces it or ignores it exactly as for the IMAP
poller. If that fails (the database is down), the sender's server hears "451" and retries later; a retry of a message
already taken is recognised by its Message-ID and changes nothing.

No TLS or login here: put it behind a relay that terminates TLS, or accept plain SMTP from the Internet as
an MX does. The token in the address and the sender check are what let a reply in.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from typing import Any

from aiosmtpd.controller import Controller

from pbem.mail.inbound import Receiver
from pbem.mail.reply_address import ReplyAddresses

log = logging.getLogger(__name__)

ACCEPTED = "250 2.0.0 Accepted"
NOT_HERE = "550 5.1.1 No such mailbox here"
TRY_LATER = "451 4.3.0 Temporary failure, please try again later"


class ReplyHandler:
    """aiosmtpd's handler: the database work runs in a thread, so the event loop keeps serving other clients."""

    def __init__(self, inbound: Receiver, replies: ReplyAddresses) -> None:
        self._inbound = inbound
        self._replies = replies

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, rcpt_options: list[str]) -> str:
        if not self._replies.is_ours(address):
            return NOT_HERE
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        raw = envelope.original_content or envelope.content
        receive = functools.partial(
            self._inbound.receive,
            raw,
            envelope_recipients=list(envelope.rcpt_tos),
            envelope_sender=(envelope.mail_from or "").strip("<>"),  # "<>": the null sender of bounces
        )
        try:
            await asyncio.get_running_loop().run_in_executor(None, receive)
        except Exception:
            log.exception("inbound mail from %s could not be handled; the sender will retry", envelope.mail_from)
            return TRY_LATER
        return ACCEPTED


def listener(inbound: Receiver, replies: ReplyAddresses, host: str, port: int) -> Controller:
    """A listener bound to host:port (not yet started: call `start()` and later `stop()`)."""
    return Controller(
        ReplyHandler(inbound, replies),
        hostname=host,
        port=port,
        server_hostname=replies.domain,
        data_size_limit=inbound.max_bytes,
    )
