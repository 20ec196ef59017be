"""The one configuration loader: a TOML file, environment overrides for secrets, validated defaults.

Everything that runs (web workers, the scheduler, the CLI) calls `load_config`, so a typo in a key or a
bad value stops start-up with a message naming the key instead of surfacing later as odd behaviour.
Development needs no file at all; production refuses to start without the settings it cannot guess.
"""

from __future__ import annotations

import dataclasses
import os
import secrets
import tomllib
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from pbem.addresses import address_key, split_reply_address
from pbem.i18n.languages import SUPPORTED
from pbem.paths import DEFAULT_INSTANCE_DIR
from pbem.quiet_hours import parse_quiet_hours

Mode = Literal["development", "production"]
MailBackend = Literal["catcher", "smtp"]
TlsMode = Literal["none", "starttls", "tls"]
TimeoutPolicy = Literal["auto-pass", "notify-host", "bot"]
GameCreators = Literal["anyone", "domains", "admins"]

DEVELOPMENT_BASE_URL = "http://127.0.0.1:5000"
SECRET_KEY_FILE = "secret_key"
# Where `pbem run` keeps the base URL its links use, so that the other commands' links point at the same server.
SERVED_BASE_URL_FILE = "base_url"
MIN_SECRET_LENGTH = 16
# A new game's form with the largest deck file (pbem/variants.py, 256 KB) and its fields must fit in a request.
MIN_REQUEST_KB = 320
# One message is a handful of SMTP exchanges, each bounded by the timeout; the lease must outlast them all.
LEASE_TIMEOUTS = 10


class ConfigError(Exception):
    """Start-up must stop: the message names the offending key or environment variable."""


@dataclass(frozen=True)
class ImapConfig:
    """The mailbox behind `mail.reply_address`, polled by `pbem mail receive` and the scheduler (empty host: never)."""

    host: str = ""
    port: int = field(default=993, metadata={"minimum": 1, "maximum": 65535})
    tls: TlsMode = "tls"
    user: str = ""
    password: str = field(default="", repr=False)
    mailbox: str = "INBOX"
    poll_interval_seconds: int = field(default=60, metadata={"minimum": 1})
    timeout_seconds: int = field(default=30, metadata={"minimum": 1})


@dataclass(frozen=True)
class MailConfig:
    backend: MailBackend = "catcher"
    host: str = "localhost"
    port: int = field(default=25, metadata={"minimum": 1, "maximum": 65535})
    tls: TlsMode = "none"
    user: str = ""
    password: str = field(default="", repr=False)
    from_address: str = "Saboteur <saboteur@localhost>"
    # Delivery (pbem/mail/deliver.py): how often the scheduler sends due mail, and how it retries.
    deliver_interval_seconds: int = field(default=5, metadata={"minimum": 1})
    timeout_seconds: int = field(default=30, metadata={"minimum": 1})
    retry_base_seconds: int = field(default=60, metadata={"minimum": 1})
    retry_cap_seconds: int = field(default=3600, metadata={"minimum": 1})
    max_attempts: int = field(default=48, metadata={"minimum": 1})
    lease_seconds: int = field(default=600, metadata={"minimum": 1})
    # Replies (pbem/mail/inbound.py): each email's Reply-To is <local>+<token>@<domain> of this address, and a
    # reply lands in the game's chat. Empty: no Reply-To, no replies.
    reply_address: str = ""
    reply_max_age_days: int = field(default=30, metadata={"minimum": 1})
    inbound_max_kb: int = field(default=1024, metadata={"minimum": 16})
    # Short answers to replies that could not be posted, all seats together, per day (each goes only to a seat's
    # own address, for a reply to that seat's signed reply address).
    bounces_per_day: int = field(default=200, metadata={"minimum": 0})
    imap: ImapConfig = field(default_factory=ImapConfig)


@dataclass(frozen=True)
class SchedulerConfig:
    interval_seconds: int = field(default=5, metadata={"minimum": 1})
    # A computer player's pace: it moves once its turn has waited bot_delay_seconds, looked for every
    # bot_interval_seconds, so about two seconds per computer player by default.
    bot_delay_seconds: int = field(default=1, metadata={"minimum": 0})
    bot_interval_seconds: int = field(default=1, metadata={"minimum": 1})
    # The sweep for reminders, deadlines and daily digests (pbem/service/sweep.py).
    sweep_interval_seconds: int = field(default=60, metadata={"minimum": 1})


@dataclass(frozen=True)
class PolicyConfig:
    """Defaults copied into each new game; a host may change them per game."""

    reminder_delay_hours: int = field(default=24, metadata={"minimum": 1})
    reminder_interval_hours: int = field(default=24, metadata={"minimum": 1})
    reminder_count: int = field(default=3, metadata={"minimum": 0})
    deadline_hours: int | None = field(default=72, metadata={"minimum": 1})
    timeout_policy: TimeoutPolicy = "auto-pass"
    # A last warning this many hours before the deadline (0: none).
    warning_hours: int = field(default=6, metadata={"minimum": 0})
    # Each player's night in their own time zone ("HH:MM-HH:MM", "" for none): no reminder is sent then, and a
    # deadline that would fall in it moves to its end. A player may set their own.
    quiet_hours: str = "22:00-08:00"
    # Away time each seat may use per game, in days, all spells together; past it the normal deadline applies.
    away_cap_days: int = field(default=7, metadata={"minimum": 0})
    # Consecutive timeouts after which a seat counts as absent and the host is asked what to do.
    absent_after: int = field(default=2, metadata={"minimum": 1})

    def __post_init__(self) -> None:
        try:
            parse_quiet_hours(self.quiet_hours)
        except ValueError as exc:
            raise ConfigError(f"policies.quiet_hours: {exc}") from None


@dataclass(frozen=True)
class AccessConfig:
    game_creators: GameCreators = "admins"
    creator_domains: tuple[str, ...] = ()
    admin_emails: tuple[str, ...] = ()
    # A new game emails every seat; these bound how many of those go to addresses that never confirmed (never
    # used a link of ours or replied to us), per client address and for the whole server, per day.
    invitations_per_client_per_day: int = field(default=40, metadata={"minimum": 0})
    invitations_per_day: int = field(default=400, metadata={"minimum": 0})
    # How long a host stays signed in on the admin pages after following their emailed host link.
    # the session cookie lasts 31 days
    host_session_days: int = field(default=14, metadata={"minimum": 1, "maximum": 31})
    # How long a player stays signed in to "My games" after following their emailed sign-in link.
    player_session_days: int = field(default=30, metadata={"minimum": 1, "maximum": 31})

    def is_admin(self, email: str) -> bool:
        return address_key(email) in {address_key(admin) for admin in self.admin_emails}

    def may_create_games(self, email: str) -> bool:
        """Whether this address may host a new game (admins always may)."""
        if self.game_creators == "anyone" or self.is_admin(email):
            return True
        if self.game_creators == "domains":
            domain = email.strip().rpartition("@")[2].casefold()
            return domain in {allowed.casefold().lstrip("@") for allowed in self.creator_domains}
        return False


# Apprise's URL schemes a player or a host may give by default: phones' push services, chats, and the generic
# JSON webhook. Each is an HTTPS (or, for json:// and ntfy:// to one's own server, HTTP) API that Apprise speaks.
DEFAULT_NOTIFICATION_SCHEMES = (
    "ntfy", "ntfys", "json", "jsons", "discord", "matrix", "matrixs", "tgram", "slack", "pover", "gotify", "gotifys",
    "signal", "signals", "mmost", "mmosts", "rocket", "rockets", "msteams", "zulip",
)


@dataclass(frozen=True)
class NotificationsConfig:
    """Notifications beside email (pbem/notify/): players' own addresses and a game's channel, in Apprise's URLs."""

    enabled: bool = True
    allowed_schemes: tuple[str, ...] = DEFAULT_NOTIFICATION_SCHEMES
    # Refuse URLs whose host resolves to loopback, private, link-local, multicast or reserved addresses (checked
    # when a URL is given and again when each notification is sent); true only for a test set-up or a LAN service.
    allow_private_addresses: bool = False
    timeout_seconds: int = field(default=5, metadata={"minimum": 1, "maximum": 30})
    # Tries before a notification fails; an address whose notifications fail for good this many times in a row is
    # switched off and its owner told by email.
    max_attempts: int = field(default=5, metadata={"minimum": 1})
    switch_off_after: int = field(default=3, metadata={"minimum": 1})
    retry_base_seconds: int = field(default=30, metadata={"minimum": 1})
    retry_cap_seconds: int = field(default=1800, metadata={"minimum": 1})


@dataclass(frozen=True)
class Config:
    mode: Mode = "development"
    # Where nobody chose a language (a seat, its game, a browser): one of pbem.i18n.languages.SUPPORTED.
    language: str = "en"
    base_url: str = ""
    secret_keys: tuple[str, ...] = field(default=(), repr=False)
    database_url: str = field(default="", repr=False)  # may hold a password
    instance_path: str = ""
    link_max_age_days: int = field(default=30, metadata={"minimum": 1})
    # How many reverse proxies in front of the app set X-Forwarded-For/-Proto (0: none; clients connect directly).
    # Per-client rate limits count the address these proxies report, so behind a proxy this must be set.
    trusted_proxies: int = field(default=0, metadata={"minimum": 0, "maximum": 5})
    # The largest request body the web app reads (the biggest legitimate one: a new game with a Saboteur 2 deck
    # file of up to 256 KB); anything larger is refused with 413 before it is read.
    max_request_kb: int = field(default=1024, metadata={"minimum": MIN_REQUEST_KB, "maximum": 100 * 1024})
    # Production wants an https:// base_url (cookies marked Secure, HSTS); only a test set-up may allow http://.
    allow_http_base_url: bool = False
    # The floor routes of bench/http_bench.py (pbem/web/bench_floor.py): for benchmarks only, never in production.
    bench_routes: bool = False
    mail: MailConfig = field(default_factory=MailConfig)
    scheduler: SchedulerConfig = field(default_factory=SchedulerConfig)
    policies: PolicyConfig = field(default_factory=PolicyConfig)
    access: AccessConfig = field(default_factory=AccessConfig)
    notifications: NotificationsConfig = field(default_factory=NotificationsConfig)

    @property
    def is_development(self) -> bool:
        return self.mode == "development"

    @property
    def mail_stays_here(self) -> bool:
        """Development with the mail catcher: no email ever leaves this machine."""
        return self.is_development and self.mail.backend == "catcher"


ENV_OVERRIDES = {
    "PBEM_SECRET_KEYS": ("secret_keys",),
    "PBEM_DATABASE_URL": ("database_url",),
    "PBEM_BASE_URL": ("base_url",),
    "PBEM_SMTP_PASSWORD": ("mail", "password"),
    "PBEM_IMAP_PASSWORD": ("mail", "imap", "password"),
}


def load_config(
    path: str | Path | None = None, *, environ: Mapping[str, str] | None = None, serving: str | None = None
) -> Config:
    """Read the file (argument, else `PBEM_CONFIG`, else none), apply environment overrides, validate.

    Without a configured `base_url`, development links name `serving` (the development server's own address,
    when this process is it), else where the development server last served, else DEVELOPMENT_BASE_URL."""
    env = os.environ if environ is None else environ
    chosen = path if path is not None else env.get("PBEM_CONFIG") or None
    raw = _read_toml(Path(chosen)) if chosen is not None else {}
    _apply_environment(raw, env)
    config = _build(Config, raw, prefix="")
    return _resolve(config, serving)


def record_served_base_url(config: Config) -> None:
    """Keep the development server's base URL in the instance folder, for the commands run beside it."""
    instance = Path(config.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    draft = instance / f".{SERVED_BASE_URL_FILE}.{secrets.token_hex(8)}"
    draft.write_text(config.base_url + "\n")
    os.replace(draft, instance / SERVED_BASE_URL_FILE)  # atomic: a command reading it sees one whole address


def known_keys(cls: type = Config, prefix: str = "") -> list[str]:
    """Every dotted key the loader accepts, for documentation checks."""
    keys: list[str] = []
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        if dataclasses.is_dataclass(hints[f.name]):
            keys.extend(known_keys(hints[f.name], f"{prefix}{f.name}."))
        else:
            keys.append(prefix + f.name)
    return keys


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise ConfigError(f"configuration file {path} does not exist") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"configuration file {path} is not valid TOML: {exc}") from None


def _apply_environment(raw: dict[str, Any], env: Mapping[str, str]) -> None:
    for variable, key_path in ENV_OVERRIDES.items():
        if variable not in env:
            continue
        value: Any = env[variable]
        if variable == "PBEM_SECRET_KEYS":
            value = [key.strip() for key in value.split(",") if key.strip()]
            if not value:
                raise ConfigError("PBEM_SECRET_KEYS is set but holds no key")
        section = raw
        for part in key_path[:-1]:
            section = section.setdefault(part, {})
            if not isinstance(section, dict):
                raise ConfigError(f"{part} must be a table")
        section[key_path[-1]] = value


def _build(cls: type, raw: Any, prefix: str) -> Any:
    """Turn a TOML table into the dataclass `cls`, refusing unknown keys and values of the wrong shape."""
    if not isinstance(raw, dict):
        raise ConfigError(f"{prefix.rstrip('.')} must be a table")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    for key in raw:
        if key not in fields:
            raise ConfigError(f"unknown configuration key '{prefix}{key}'")
    hints = typing.get_type_hints(cls)
    values = {}
    for name, value in raw.items():
        key = prefix + name
        expected = hints[name]
        if isinstance(expected, type) and dataclasses.is_dataclass(expected):
            values[name] = _build(expected, value, f"{key}.")
        else:
            values[name] = _convert(key, expected, value, fields[name].metadata)
    return cls(**values)


def _convert(key: str, expected: Any, value: Any, metadata: Mapping[str, Any]) -> Any:
    origin = typing.get_origin(expected)
    if origin is Literal:
        choices = typing.get_args(expected)
        if value not in choices:
            raise ConfigError(f"{key} must be one of {', '.join(map(repr, choices))}, not {value!r}")
        return value
    if origin in (typing.Union, types.UnionType):
        # `int | None` is written as a number or the word "none" (TOML has no null).
        if value == "none":
            return None
        return _convert(key, int, value, metadata)
    if origin is tuple:
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise ConfigError(f"{key} must be a list of strings")
        return tuple(value)
    if expected is bool:
        if not isinstance(value, bool):
            raise ConfigError(f"{key} must be true or false, not {value!r}")
        return value
    if expected is int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise ConfigError(f"{key} must be a whole number, not {value!r}")
        if "minimum" in metadata and value < metadata["minimum"]:
            raise ConfigError(f"{key} must be at least {metadata['minimum']}, not {value}")
        if "maximum" in metadata and value > metadata["maximum"]:
            raise ConfigError(f"{key} must be at most {metadata['maximum']}, not {value}")
        return value
    if expected is str:
        if not isinstance(value, str):
            raise ConfigError(f"{key} must be a string, not {value!r}")
        return value
    raise TypeError(f"the loader does not know how to read {expected!r} for {key}")  # a programming error


def _resolve(config: Config, serving: str | None = None) -> Config:
    """Fill in development defaults, check values that need more than a type, refuse unsafe production."""
    instance = Path(config.instance_path) if config.instance_path else DEFAULT_INSTANCE_DIR
    updates: dict[str, Any] = {"instance_path": str(instance)}

    if config.mode == "production":
        if not config.secret_keys:
            raise ConfigError("production mode needs secret_keys (or PBEM_SECRET_KEYS)")
        if not config.base_url:
            raise ConfigError("production mode needs base_url (the public address of this server)")
        if config.base_url.startswith("http://") and not config.allow_http_base_url:
            raise ConfigError(
                "production mode needs an https:// base_url (set allow_http_base_url = true only for a test set-up)"
            )
    if config.language not in SUPPORTED:
        raise ConfigError(f"language must be one of {', '.join(map(repr, SUPPORTED))}, not {config.language!r}")
    base_url = (config.base_url or serving or _served_base_url(instance) or DEVELOPMENT_BASE_URL).rstrip("/")
    if not base_url.startswith(("http://", "https://")):
        raise ConfigError(f"base_url must start with http:// or https://, not {config.base_url!r}")
    updates["base_url"] = base_url

    for index, key in enumerate(config.secret_keys):
        if len(key) < MIN_SECRET_LENGTH:
            raise ConfigError(f"secret_keys[{index}] is too short (at least {MIN_SECRET_LENGTH} characters)")
    if not config.secret_keys:
        updates["secret_keys"] = (_development_secret(instance),)

    database_url = config.database_url or f"sqlite:///{instance / 'pbem.sqlite3'}"
    try:
        backend = make_url(database_url).get_backend_name()
    except ArgumentError:
        raise ConfigError(f"database_url is not a database URL: {database_url!r}") from None
    if backend not in ("sqlite", "postgresql"):
        raise ConfigError(f"database_url must name SQLite or PostgreSQL, not {backend!r}")
    updates["database_url"] = database_url

    if "@" not in config.mail.from_address:
        raise ConfigError(f"mail.from_address must be an email address, not {config.mail.from_address!r}")
    if config.mail.retry_cap_seconds < config.mail.retry_base_seconds:
        raise ConfigError("mail.retry_cap_seconds must be at least mail.retry_base_seconds")
    if config.mail.lease_seconds < LEASE_TIMEOUTS * config.mail.timeout_seconds:
        # A deliverer still talking to the relay must not see its message handed to another deliverer.
        raise ConfigError(
            f"mail.lease_seconds must be at least {LEASE_TIMEOUTS} times mail.timeout_seconds "
            f"({LEASE_TIMEOUTS * config.mail.timeout_seconds})"
        )
    if config.mail.reply_address:
        try:
            split_reply_address(config.mail.reply_address)
        except ValueError as exc:
            raise ConfigError(f"mail.reply_address: {exc}") from None
    elif config.mail.imap.host:
        raise ConfigError("mail.imap.host is set but mail.reply_address is empty: replies need a reply address")
    for index, email in enumerate(config.access.admin_emails):
        if "@" not in email:
            raise ConfigError(f"access.admin_emails[{index}] is not an email address: {email!r}")
    for index, scheme in enumerate(config.notifications.allowed_schemes):
        if not scheme.isascii() or not scheme.isalnum() or scheme != scheme.lower():
            raise ConfigError(f"notifications.allowed_schemes[{index}] must be a URL scheme in lower case: {scheme!r}")
    if config.notifications.retry_cap_seconds < config.notifications.retry_base_seconds:
        raise ConfigError("notifications.retry_cap_seconds must be at least notifications.retry_base_seconds")
    if config.access.game_creators == "domains" and not config.access.creator_domains:
        raise ConfigError("access.creator_domains must list at least one domain when game_creators is 'domains'")
    return dataclasses.replace(config, **updates)


def _served_base_url(instance: Path) -> str | None:
    """Where the development server last served (`pbem run` records it), if it has run here."""
    try:
        served = (instance / SERVED_BASE_URL_FILE).read_text().strip()
    except FileNotFoundError:
        return None
    if not served.startswith(("http://", "https://")):
        raise ConfigError(f"{instance / SERVED_BASE_URL_FILE} holds no address; delete it (pbem run writes it again)")
    return served


def _development_secret(instance: Path) -> str:
    """Generate the development secret once and keep it, so links survive a restart."""
    path = instance / SECRET_KEY_FILE
    if not path.exists():
        instance.mkdir(parents=True, exist_ok=True)
        draft = instance / f".{SECRET_KEY_FILE}.{secrets.token_hex(8)}"
        fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_urlsafe(32) + "\n")
        try:
            os.link(draft, path)  # atomic: of two processes starting at once, one secret wins
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    secret = path.read_text().strip()
    if len(secret) < MIN_SECRET_LENGTH:
        raise ConfigError(f"{path} holds no usable secret; delete it to generate a new one")
    return secret
