"""Replies by email: a runtime with a reply address, and a real IMAP server (Dovecot) on loopback."""

from __future__ import annotations

import dataclasses
import grp
import imaplib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from pbem.chance import SeededChance
from pbem.clock import SettableClock
from pbem.config import Config
from pbem.runtime import Runtime, build_runtime
from tests.support.mail import free_port

REPLY_ADDRESS = "play@replies.pbem.test"


@pytest.fixture
def reply_runtime(config: Config, clock: SettableClock, chance: SeededChance) -> Iterator[Runtime]:
    """The application with replies on: every player email carries a Reply-To signed for its seat."""
    mail = dataclasses.replace(config.mail, reply_address=REPLY_ADDRESS, inbound_max_kb=64)
    built = build_runtime(dataclasses.replace(config, mail=mail), clock=clock, chance=chance)
    yield built
    built.close()


@dataclass(frozen=True)
class ImapServer:
    """Dovecot on loopback with one passwd-file user and a Maildir under a temporary folder."""

    host: str
    port: int
    user: str
    password: str
    log: Path

    def connect(self) -> imaplib.IMAP4:
        client = imaplib.IMAP4(self.host, self.port, timeout=10)
        client.login(self.user, self.password)
        return client

    def deliver(self, raw: bytes) -> None:
        """Put a message into the INBOX, as the operator's mail server would (IMAP APPEND)."""
        client = self.connect()
        try:
            status, data = client.append("INBOX", None, None, raw)
            assert status == "OK", data
        finally:
            client.logout()

    def empty(self) -> None:
        """Delete every message in the INBOX (each test starts with an empty mailbox)."""
        client = self.connect()
        try:
            status, data = client.select("INBOX")
            assert status == "OK", data
            if int(data[0] or 0):
                client.store("1:*", "+FLAGS.SILENT", r"(\Deleted)")
                client.expunge()
        finally:
            client.logout()

    def count(self) -> int:
        """Messages in the INBOX now."""
        client = self.connect()
        try:
            status, data = client.select("INBOX")
            assert status == "OK", data
            return int(data[0] or 0)
        finally:
            client.logout()


DOVECOT = "/usr/sbin/dovecot"
DOVECOT_CONFIG = """\
protocols = imap
listen = 127.0.0.1
base_dir = {folder}/run
state_dir = {folder}/state
instance_name = pbem-test-{port}
default_internal_user = {user}
default_internal_group = {group}
default_login_user = {user}
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
log_path = {folder}/dovecot.log
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {folder}/users
}}
userdb {{
  driver = passwd-file
  args = username_format=%u {folder}/users
}}
mail_location = maildir:{folder}/mail/%u
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service anvil {{
  chroot =
}}
"""


@pytest.fixture
def imap_server(dovecot: ImapServer) -> ImapServer:
    """A real IMAP server on loopback with an empty INBOX (one Dovecot serves the whole test session)."""
    dovecot.empty()
    return dovecot


@pytest.fixture(scope="session")
def dovecot() -> Iterator[ImapServer]:
    """Debian's dovecot-imapd (which `make test` installs) as an unprivileged process with its own configuration
    in a temporary folder: plain-text login on loopback, a passwd-file user, Maildir under the folder."""
    if not os.path.exists(DOVECOT):
        pytest.fail("dovecot-imapd is not installed; `make test` installs it (SYSTEM_PACKAGES in the Makefile)")
    # As root, the server runs as nobody; otherwise as whoever runs the tests.
    account = pwd.getpwnam("nobody") if os.geteuid() == 0 else pwd.getpwuid(os.geteuid())
    group = grp.getgrgid(account.pw_gid).gr_name
    folder = Path(tempfile.mkdtemp(prefix="pbem-imap-"))
    port = free_port()
    user, password = "pbem", "imap-test-password"
    for name in ("run", "state", "mail", "home"):
        (folder / name).mkdir()
    (folder / "dovecot.conf").write_text(
        DOVECOT_CONFIG.format(folder=folder, port=port, user=account.pw_name, group=group)
    )
    (folder / "users").write_text(f"{user}:{{PLAIN}}{password}:{account.pw_uid}:{account.pw_gid}::{folder}/home\n")
    command = [DOVECOT, "-F", "-c", str(folder / "dovecot.conf")]
    if os.geteuid() == 0:
        for path in [folder, *folder.rglob("*")]:
            os.chown(path, account.pw_uid, account.pw_gid)
        command = ["setpriv", f"--reuid={account.pw_uid}", f"--regid={account.pw_gid}", "--clear-groups", *command]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _wait_until_listening(process, port, folder / "dovecot.log")
        yield ImapServer("127.0.0.1", port, user, password, folder / "dovecot.log")
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(folder, ignore_errors=True)


def _wait_until_listening(process: subprocess.Popen[bytes], port: int, log: Path) -> None:
    """Dovecot forks its listeners after start-up; wait (bounded) until the port answers, or say why not."""
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if process.poll() is not None:
            stderr = process.stderr.read().decode() if process.stderr else ""
            details = log.read_text() if log.exists() else ""
            pytest.fail(f"dovecot exited with {process.returncode}: {stderr}{details}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.05)  # a server process starting up, not the application's clock
    pytest.fail(f"dovecot did not listen on port {port} within 15 seconds")
