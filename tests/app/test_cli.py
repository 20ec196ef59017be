"""The `pbem` command line, run through click's CliRunner against a real database."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from sqlalchemy import inspect, select, update
from sqlalchemy.orm import selectinload

from pbem.cli import main
from pbem.config import load_config
from pbem.db import Database
from pbem.models import Base, Game, OutboxMessage, Seat, TurnClock
from pbem.paths import REPO_ROOT
from pbem.runtime import build_runtime
from tests.support.database import BASE_URL, TEST_SECRET
from tests.support.games import link_token
from tests.support.mail import SmtpServer, free_port


@pytest.fixture
def config_file(database_url: str, tmp_path: Path) -> Path:
    path = tmp_path / "pbem.toml"
    path.write_text(
        f'base_url = "{BASE_URL}"\nsecret_keys = ["{TEST_SECRET}"]\n'
        f'database_url = "{database_url}"\ninstance_path = "{tmp_path / "instance"}"\n'
    )
    return path


def pbem(config_file: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--config", str(config_file), *args], catch_exceptions=False)


@pytest.fixture
def migrated(config_file: Path) -> Path:
    assert pbem(config_file, "db", "upgrade").exit_code == 0
    return config_file


def games_and_mail(config_file: Path) -> tuple[list[Game], list[OutboxMessage]]:
    db = Database(load_config(config_file, environ={}).database_url)
    try:
        with db.read() as session:
            games = session.scalars(select(Game).options(selectinload(Game.seats)).order_by(Game.id))
            return list(games), list(session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)))
    finally:
        db.dispose()


def seat_of(config_file: Path, link: str) -> int:
    runtime = build_runtime(load_config(config_file, environ={}))
    try:
        return runtime.games.resolve_link(link_token(link)).seat
    finally:
        runtime.close()


def test_db_upgrade_creates_the_schema(config_file: Path, database_url: str) -> None:
    result = pbem(config_file, "db", "upgrade")

    assert result.exit_code == 0, result.output
    assert "up to date" in result.output
    db = Database(database_url)
    with db.engine.connect() as connection:
        assert set(inspect(connection).get_table_names()) >= set(Base.metadata.tables)
    db.dispose()


def test_create_game_starts_it_and_prints_each_players_link(migrated: Path) -> None:
    result = pbem(migrated, "create-game", "--title", "Friday mine",
                  "--player", "Ann <ann@example.org>", "--player", "Ben <ben@example.org>", "--bots", "1")

    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    ann = next(line for line in lines if line.strip().startswith("Ann <ann@example.org>: "))
    ben = next(line for line in lines if line.strip().startswith("Ben <ben@example.org>: "))
    assert any("Bot 1: computer player" in line for line in lines)
    assert seat_of(migrated, ann.split(": ", 1)[1]) == 0
    assert seat_of(migrated, ben.split(": ", 1)[1]) == 1
    [game], mail = games_and_mail(migrated)
    assert (game.title, game.status, game.host_email) == ("Friday mine", "active", "ann@example.org")
    assert sorted(message.to_address for message in mail) == ["ann@example.org", "ben@example.org"]


def test_create_game_refuses_a_malformed_player(migrated: Path) -> None:
    result = CliRunner().invoke(main, ["--config", str(migrated), "create-game", "--title", "T",
                                       "--player", "just a name"])

    assert result.exit_code == 2
    assert 'should look like "Ann <ann@example.org>"' in result.output


def test_create_game_explains_what_the_rules_refuse_and_stores_nothing(migrated: Path) -> None:
    result = pbem(migrated, "create-game", "--title", "Too few", "--player", "Ann <ann@example.org>")

    assert result.exit_code == 1
    assert "3 to 10 players" in result.output
    assert games_and_mail(migrated) == ([], [])


def test_demo_prints_your_link_and_continues_the_same_game(migrated: Path) -> None:
    first = pbem(migrated, "demo", "--name", "Dora", "--email", "dora@example.org")
    again = pbem(migrated, "demo")
    another = pbem(migrated, "demo", "--new")

    assert first.exit_code == again.exit_code == another.exit_code == 0
    link = first.output.splitlines()[-1].split(": ", 1)[1]
    assert first.output.splitlines()[-1].startswith("your link (Dora): ")
    assert seat_of(migrated, link) == 0
    assert "continuing demo game" in again.output
    games, mail = games_and_mail(migrated)
    assert len(games) == 2 and all(game.is_demo for game in games)
    assert [len(game.seats) for game in games] == [4, 4]
    assert [message.to_address for message in mail] == ["dora@example.org", "you@localhost"]


def test_mail_deliver_sends_what_is_due_and_says_what_happened(migrated: Path, smtp_server: SmtpServer) -> None:
    with migrated.open("a") as config:
        config.write(f'[mail]\nbackend = "smtp"\nhost = "{smtp_server.host}"\nport = {smtp_server.port}\n')
    pbem(migrated, "create-game", "--title", "Friday mine",
         "--player", "Ann <ann@example.org>", "--player", "Ben <ben@example.org>", "--bots", "1")
    smtp_server.handler.refuse_recipient("ben@example.org", "550 5.1.1 No such user")

    result = pbem(migrated, "mail", "deliver")

    assert result.exit_code == 0, result.output
    assert "sent 2, retrying later 0, failed 1, dropped as stale 0" in result.output  # Ann, then the host's notice
    assert sorted(mail.rcpt_tos[0] for mail in smtp_server.received) == ["ann@example.org", "ann@example.org"]
    _, mail = games_and_mail(migrated)
    assert [(message.kind, message.status) for message in mail] == [
        ("game_started", "sent"), ("game_started", "failed"), ("host_mail_failing", "sent")
    ]
    assert pbem(migrated, "mail", "deliver").output.strip() == "sent 0, retrying later 0, failed 0, dropped as stale 0"


def test_mail_deliver_fails_loudly_when_the_relay_is_unreachable(migrated: Path) -> None:
    with migrated.open("a") as config:
        config.write(f'[mail]\nbackend = "smtp"\nhost = "127.0.0.1"\nport = {free_port()}\n')
    pbem(migrated, "create-game", "--title", "T", "--player", "Ann <ann@example.org>", "--bots", "2")

    result = pbem(migrated, "mail", "deliver")

    assert result.exit_code == 1
    assert "retrying later 1" in result.output and "unreachable" in result.output


def test_a_bad_configuration_stops_the_command_naming_the_key(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("[mail]\nprot = 25\n")

    result = CliRunner().invoke(main, ["--config", str(path), "db", "upgrade"])

    assert result.exit_code == 1
    assert "unknown configuration key 'mail.prot'" in result.output


def test_the_development_server_refuses_production_mode(tmp_path: Path) -> None:
    path = tmp_path / "prod.toml"
    path.write_text(f'mode = "production"\nbase_url = "{BASE_URL}"\nsecret_keys = ["{TEST_SECRET}"]\n'
                    f'instance_path = "{tmp_path}"\n')

    result = CliRunner().invoke(main, ["--config", str(path), "run"])

    assert result.exit_code == 1
    assert "gunicorn" in result.output


def test_help_lists_every_command() -> None:
    result = CliRunner().invoke(main, ["--help"])

    assert result.exit_code == 0
    for command in ("db", "run", "scheduler", "mail", "create-game", "demo", "sweep"):
        assert command in result.output


def test_create_game_starts_a_saboteur2_game_for_two(migrated: Path) -> None:
    result = pbem(migrated, "create-game", "--title", "Two of us", "--variant", "saboteur2",
                  "--player", "Ann <ann@example.org>", "--player", "Ben <ben@example.org>")

    assert result.exit_code == 0, result.output
    [game], mail = games_and_mail(migrated)
    assert (game.variant, game.options, len(game.seats)) == ("saboteur2", {}, 2)
    assert all("How it works (Saboteur 2)" in message.body_text for message in mail)


def test_create_game_plays_with_a_hosts_deck_file(migrated: Path, tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text((REPO_ROOT / "docs" / "decks" / "saboteur2.toml").read_text())

    result = pbem(migrated, "create-game", "--title", "Own cards", "--variant", "saboteur2", "--deck", str(deck),
                  "--player", "Ann <ann@example.org>", "--bots", "2")

    assert result.exit_code == 0, result.output
    [game], _ = games_and_mail(migrated)
    assert game.options["deck"]["paths"][0]["name"] == "cross"


def test_create_game_shows_the_engines_reason_for_a_bad_deck_and_stores_nothing(migrated: Path, tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text((REPO_ROOT / "docs" / "decks" / "saboteur2.toml").read_text().replace("count = 5", "count = 50", 1))

    result = pbem(migrated, "create-game", "--title", "Own cards", "--variant", "saboteur2", "--deck", str(deck),
                  "--player", "Ann <ann@example.org>", "--bots", "2")

    assert result.exit_code == 1
    assert "Deck paths entry 1 (cross): 'count' must be a whole number from 1 to 20" in result.output
    assert games_and_mail(migrated) == ([], [])


def test_a_deck_file_is_only_for_saboteur2(migrated: Path, tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text("")

    result = CliRunner().invoke(main, ["--config", str(migrated), "create-game", "--title", "T", "--deck", str(deck),
                                       "--player", "Ann <ann@example.org>", "--bots", "2"])

    assert result.exit_code == 2 and "--deck is for Saboteur 2 games" in result.output


def test_demo_of_saboteur2_is_its_own_game(migrated: Path) -> None:
    first = pbem(migrated, "demo", "--variant", "saboteur2")
    base = pbem(migrated, "demo")
    again = pbem(migrated, "demo", "--variant", "saboteur2")

    assert first.exit_code == base.exit_code == again.exit_code == 0
    assert "continuing demo game" not in base.output and "continuing demo game" in again.output
    games, _ = games_and_mail(migrated)
    assert [(game.variant, game.title) for game in games] == [
        ("saboteur2", "Demo game (Saboteur 2)"), ("base", "Demo game")
    ]


def test_sweep_runs_one_sweep_and_says_what_it_did(migrated: Path) -> None:
    assert pbem(migrated, "create-game", "--title", "Slow", "--player", "Ann <ann@example.org>",
                "--player", "Ben <ben@example.org>", "--player", "Cat <cat@example.org>").exit_code == 0
    db = Database(load_config(migrated, environ={}).database_url)
    try:
        with db.write() as session:  # the turn has waited a day and a half (the command runs on the real clock)
            session.execute(update(Seat).values(quiet_hours=""))  # whatever the hour of the test run
            for clock in session.scalars(select(TurnClock)):
                clock.started_at -= timedelta(hours=36)
                clock.due_at = clock.started_at + timedelta(hours=24)
    finally:
        db.dispose()

    first = pbem(migrated, "sweep")
    again = pbem(migrated, "sweep")

    assert first.exit_code == 0 and "reminders 1," in first.output
    assert "reminders 0," in again.output


@pytest.mark.usefixtures("compiled_catalogues")
def test_create_game_with_a_language_emails_everyone_in_it(migrated: Path) -> None:
    result = pbem(migrated, "create-game", "--title", "Mine", "--player", "Ann <ann@example.org>",
                  "--player", "Ben <ben@example.org>", "--bots", "1", "--language", "de")

    assert result.exit_code == 0, result.output
    (game,), mail = games_and_mail(migrated)
    assert game.language == "de"
    assert [message.headers["Content-Language"] for message in mail] == ["de", "de"]
    assert all("Dieser Link gehört nur dir" in (message.body_text or "").replace("\n", " ") for message in mail)


def test_create_game_refuses_a_language_it_does_not_speak(migrated: Path) -> None:
    result = CliRunner().invoke(main, ["--config", str(migrated), "create-game", "--title", "Mine", "--player",
                                       "Ann <ann@example.org>", "--bots", "2", "--language", "fr"])

    assert result.exit_code != 0
    assert games_and_mail(migrated) == ([], [])
