"""The `pbem` command: database migrations, the development server, the scheduler, creating games.

Every command loads the one configuration (`--config` or `PBEM_CONFIG`) and goes through the game
service like the web app does; errors come out as one readable line and a non-zero exit.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from email.utils import parseaddr
from pathlib import Path
from typing import Any

import click

from pbem import create_app
from pbem.config import Config, ConfigError, load_config, record_served_base_url
from pbem.db import BackupError, Database
from pbem.errors import PbemError
from pbem.i18n import SUPPORTED
from pbem.mail.imap_poll import MailboxUnavailable
from pbem.migrate import upgrade
from pbem.runtime import Runtime, build_runtime
from pbem.scheduler import build_scheduler
from pbem.service.turns.bots import start_demo
from pbem.service.turns.values import PlayerSpec
from pbem.variants import load_deck, variant_choices
from pbem.web.app_context import EXTENSION_KEY

VARIANT_NAMES = [choice.name for choice in variant_choices()]


@dataclass
class CliState:
    config_path: str | None
    _config: Config | None = field(default=None, init=False)

    def config(self, *, serving: str | None = None) -> Config:
        """The configuration; `serving`: this process is the development server at that address."""
        if self._config is None:
            try:
                self._config = load_config(self.config_path, serving=serving)
            except ConfigError as exc:
                raise click.ClickException(f"configuration: {exc}") from None
        return self._config

    def runtime(self) -> Runtime:
        return build_runtime(self.config())


pass_state = click.make_pass_decorator(CliState)


def configure_logging() -> None:
    """Informative logs for long-running commands, without a line for every scheduler tick."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("apscheduler.executors").setLevel(logging.WARNING)


@click.group()
@click.option(
    "--config", "config_path", type=click.Path(dir_okay=False), default=None,
    help="Configuration file (default: $PBEM_CONFIG, else development defaults).",
)
@click.pass_context
def main(ctx: click.Context, config_path: str | None) -> None:
    """Saboteur play-by-email server."""
    ctx.obj = CliState(config_path)


@main.group()
def db() -> None:
    """Database schema."""


@db.command("upgrade")
@pass_state
def db_upgrade(state: CliState) -> None:
    """Apply every pending migration (run before starting a new version)."""
    upgrade(state.config().database_url)
    click.echo("database is up to date")


@db.command("backup")
@click.argument("target", type=click.Path(dir_okay=False, path_type=Path))
@pass_state
def db_backup(state: CliState, target: Path) -> None:
    """Copy the live database to TARGET (a new file, readable by you only): SQLite's online backup, or pg_dump's
    custom format.

    Restore (with the web workers and the scheduler stopped): SQLite, copy the file over the database file;
    PostgreSQL, `pg_restore --clean --if-exists --no-owner --dbname URL TARGET`. Then `pbem db upgrade`."""
    database = Database(state.config().database_url)
    try:
        database.backup(target)
    except BackupError as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        database.dispose()
    click.echo(f"backed up to {target} ({target.stat().st_size} bytes)")


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=int, envvar="PORT",
              help="Port to serve on (or the PORT environment variable); links, the other commands' too, "
                   "then name this port.")
@pass_state
def run(state: CliState, host: str, port: int) -> None:
    """Development server with the scheduler running inside it."""
    # No address configured: links point where this server listens, and so do the other commands' links.
    config = state.config(serving=f"http://{host}:{port}")
    if not config.is_development:
        raise click.ClickException(
            "pbem run is the development server; in production run gunicorn 'pbem:create_app()' "
            "and one 'pbem scheduler' process"
        )
    record_served_base_url(config)
    configure_logging()
    app = create_app(config)
    scheduler = build_scheduler(app.extensions[EXTENSION_KEY], "background")
    scheduler.start()
    click.echo(f"serving on http://{host}:{port}/  (links in emails use {config.base_url})")
    try:
        app.run(host=host, port=port, use_reloader=False, threaded=True)
    finally:
        scheduler.shutdown(wait=False)


@main.command()
@pass_state
def scheduler(state: CliState) -> None:
    """The production scheduler: run exactly one of these beside the web workers."""
    configure_logging()
    runtime = state.runtime()
    click.echo("scheduler running; stop with Ctrl-C")
    try:
        build_scheduler(runtime, "blocking").start()
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        runtime.close()


@main.command()
@pass_state
def sweep(state: CliState) -> None:
    """Run one sweep now: due reminders, deadline warnings, deadlines and daily digests (the scheduler's job)."""
    configure_logging()
    runtime = state.runtime()
    try:
        result = runtime.sweep.run()
    finally:
        runtime.close()
    click.echo(
        f"reminders {result.reminders}, warnings {result.warnings}, timeouts {result.timeouts}, "
        f"host notices {result.host_notices}, daily digests {result.digests}"
    )


@main.group()
def mail() -> None:
    """Email."""


@mail.command("deliver")
@pass_state
def mail_deliver(state: CliState) -> None:
    """Send every email that is due now (the scheduler does this every few seconds)."""
    configure_logging()
    runtime = state.runtime()
    try:
        report = runtime.deliverer().run(limit=None)
    finally:
        runtime.close()
    click.echo(
        f"sent {report.sent}, retrying later {report.retrying}, failed {report.failed}, "
        f"dropped as stale {report.dropped}"
    )
    if report.relay_unavailable:
        relay = f"{runtime.config.mail.host}:{runtime.config.mail.port}"
        raise click.ClickException(f"the mail relay {relay} is unreachable")


@main.command("create-game")
@click.option("--title", required=True, help="The game's name, shown in every email.")
@click.option("--player", "players", multiple=True, metavar='"NAME <EMAIL>"', help="A person, in seating order.")
@click.option("--bots", default=0, show_default=True, type=click.IntRange(0, 10), help="Computer players to add.")
@click.option("--host", "host_email", default=None, help="The host's email (default: the first player's).")
@click.option(
    "--variant",
    type=click.Choice(VARIANT_NAMES),
    default="base",
    show_default=True,
    help="base: Saboteur; saboteur2: the expansion (2-12 players).",
)
@click.option(
    "--deck",
    "deck_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Saboteur 2 only: your own deck as a TOML file (format: docs/engine.md, Deck format).",
)
@click.option("--webhook", default=None, metavar="URL",
              help="The table's channel, in Apprise's URL form (ntfy://..., discord://..., json://...): told the "
              "public events (docs/notifications.md).")
@click.option("--language", type=click.Choice(SUPPORTED), default=None,
              help="The language its players read until each chooses their own (default: the server's `language`).")
@pass_state
def create_game(
    state: CliState,
    title: str,
    players: tuple[str, ...],
    bots: int,
    host_email: str | None,
    variant: str,
    deck_path: str | None,
    webhook: str | None,
    language: str | None,
) -> None:
    """Create and start a game, then print each player's link (they are emailed too)."""
    people = [_parse_player(text) for text in players]
    if not people:
        raise click.UsageError("name at least one --player")
    seats = people + [PlayerSpec(name=f"Bot {n}", is_bot=True) for n in range(1, bots + 1)]
    options = _deck_options(variant, deck_path)
    runtime = state.runtime()
    try:
        game_id, channel = runtime.hosting.create_from_command_line(
            host_email=host_email or people[0].email or "",
            title=title,
            players=seats,
            variant=variant,
            options=options,
            channel=webhook,
            language=language,
        )
        invites = runtime.games.invites(game_id)
    except PbemError as exc:
        raise click.ClickException(exc.message) from None
    finally:
        runtime.close()
    click.echo(f"game {game_id} started: {title}")
    if webhook:
        click.echo(f"  the table's channel: {channel}")
    for invite in invites:
        if invite.is_bot:
            click.echo(f"  {invite.name}: computer player")
        else:
            click.echo(f"  {invite.name} <{invite.email}>: {invite.link}")


@main.command()
@click.option(
    "--name", default="Alex", show_default=True, help="Your name at the table (not \"You\": the game says that)."
)
@click.option("--email", default="you@localhost", show_default=True, help="Where your emails would go.")
@click.option("--bots", default=3, show_default=True, type=click.IntRange(1, 9), help="Computer opponents.")
@click.option("--new", "always_new", is_flag=True, help="Start another demo game even if one is unfinished.")
@click.option(
    "--variant",
    type=click.Choice(VARIANT_NAMES),
    default="base",
    show_default=True,
    help="base: Saboteur; saboteur2: the expansion.",
)
@pass_state
def demo(state: CliState, name: str, email: str, bots: int, always_new: bool, variant: str) -> None:
    """A game of you against computer players; prints your link (an unfinished demo of that variant goes on)."""
    runtime = state.runtime()
    try:
        existing = [] if always_new else [d for d in runtime.games.demo_invites() if d.variant == variant]
        if existing:
            invites = existing[0].invites
            click.echo(f"continuing demo game {existing[0].game_id} (use --new for another)")
        else:
            game_id = start_demo(runtime.games, name=name, email=email, bots=bots, variant=variant)
            invites = runtime.games.invites(game_id)
            click.echo(f"demo game {game_id} started")
    except PbemError as exc:
        raise click.ClickException(exc.message) from None
    finally:
        runtime.close()
    for invite in invites:
        if not invite.is_bot:
            click.echo(f"your link ({invite.name}): {invite.link}")


def _deck_options(variant: str, deck_path: str | None) -> dict[str, Any] | None:
    """The game's options from --deck; the engine judges the deck itself when the game is created."""
    if deck_path is None:
        return None
    if not next(choice for choice in variant_choices() if choice.name == variant).takes_deck:
        raise click.UsageError(f"--deck is for Saboteur 2 games (--variant saboteur2), not {variant}")
    try:
        return {"deck": load_deck(deck_path)}
    except PbemError as exc:
        raise click.ClickException(exc.message) from None


@mail.command("receive")
@pass_state
def mail_receive(state: CliState) -> None:
    """Poll the reply mailbox once (mail.imap) and post its replies to the games' chats."""
    configure_logging()
    runtime = state.runtime()
    try:
        report = runtime.poller().poll(limit=None)
    except (ValueError, MailboxUnavailable) as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        runtime.close()
    click.echo(
        f"posted {report.posted}, refused {report.rejected}, ignored {report.ignored}, seen before {report.duplicates}"
    )


@mail.command("listen")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (0.0.0.0: all).")
@click.option("--port", default=2525, show_default=True, type=click.IntRange(1, 65535))
@pass_state
def mail_listen(state: CliState, host: str, port: int) -> None:
    """Take replies over SMTP (point the reply domain's MX here); runs until stopped."""
    configure_logging()
    runtime = state.runtime()
    try:
        controller = runtime.listener(host, port)
    except ValueError as exc:
        runtime.close()
        raise click.ClickException(str(exc)) from None
    controller.start()
    click.echo(f"taking replies for {runtime.config.mail.reply_address} on {host}:{port}; stop with Ctrl-C")
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        controller.stop()
        runtime.close()


def _parse_player(text: str) -> PlayerSpec:
    name, address = parseaddr(text)
    if not name or not address or "@" not in address:
        raise click.BadParameter(f'{text!r} should look like "Ann <ann@example.org>"', param_hint="--player")
    return PlayerSpec(name=name, email=address)
