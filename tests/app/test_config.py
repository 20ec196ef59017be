"""The configuration loader: documented defaults, strict validation, environment overrides, safe production."""

from __future__ import annotations

import stat
import tomllib
from pathlib import Path

import pytest

from pbem.config import Config, ConfigError, known_keys, load_config
from pbem.paths import REPO_ROOT

STRONG = "a-strong-secret-key-of-32-chars!"
OLDER = "an-older-secret-key-still-valid!"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def instance(tmp_path: Path) -> str:
    return f'instance_path = "{tmp_path / "instance"}"\n'


def test_development_needs_no_file(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, instance(tmp_path)), environ={})

    assert config.mode == "development"
    assert config.base_url == "http://127.0.0.1:5000"
    assert config.database_url == f"sqlite:///{tmp_path / 'instance' / 'pbem.sqlite3'}"
    assert len(config.secret_keys) == 1 and len(config.secret_keys[0]) >= 32


def test_development_secret_is_generated_once_and_kept_private(tmp_path: Path) -> None:
    first = load_config(write(tmp_path, instance(tmp_path)), environ={})
    second = load_config(write(tmp_path, instance(tmp_path)), environ={})

    assert first.secret_keys == second.secret_keys
    secret_file = tmp_path / "instance" / "secret_key"
    assert secret_file.read_text().strip() == first.secret_keys[0]
    assert stat.S_IMODE(secret_file.stat().st_mode) == 0o600


def test_without_a_path_the_file_comes_from_pbem_config(tmp_path: Path) -> None:
    path = write(tmp_path, instance(tmp_path) + "link_max_age_days = 7\n")

    assert load_config(environ={"PBEM_CONFIG": str(path)}).link_max_age_days == 7


def test_sections_are_read(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        instance(tmp_path)
        + '[mail]\nbackend = "smtp"\nport = 587\ntls = "starttls"\n'
        + '[policies]\ndeadline_hours = "none"\n[access]\nadmin_emails = ["root@example.org"]\n',
    )

    config = load_config(path, environ={})

    assert (config.mail.backend, config.mail.port, config.mail.tls) == ("smtp", 587, "starttls")
    assert config.policies.deadline_hours is None
    assert config.access.admin_emails == ("root@example.org",)


def test_the_servers_language_is_read_and_english_by_default(tmp_path: Path) -> None:
    chosen = load_config(write(tmp_path, instance(tmp_path) + 'language = "ko"\n'), environ={})
    default = load_config(write(tmp_path, instance(tmp_path)), environ={})

    assert (chosen.language, default.language) == ("ko", "en")


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("colour = 'red'\n", "colour"),
        ("[mail]\nhots = 'x'\n", "mail.hots"),
        ("[cache]\nsize = 1\n", "cache"),
    ],
)
def test_unknown_keys_stop_start_up_naming_the_key(tmp_path: Path, text: str, named: str) -> None:
    with pytest.raises(ConfigError, match=f"unknown configuration key '{named}'"):
        load_config(write(tmp_path, instance(tmp_path) + text), environ={})


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("[mail]\nport = '25'\n", "mail.port"),
        ("[mail]\nport = 0\n", "mail.port"),
        ("[mail]\nport = 70000\n", "mail.port"),
        ("[mail]\ntls = 'ssl'\n", "mail.tls"),
        ("[mail]\nbackend = 'sendmail'\n", "mail.backend"),
        ("[mail]\nfrom_address = 'nobody'\n", "mail.from_address"),
        ("mode = 'staging'\n", "mode"),
        ("link_max_age_days = true\n", "link_max_age_days"),
        ("link_max_age_days = 0\n", "link_max_age_days"),
        ("secret_keys = 'just-one-string-key'\n", "secret_keys"),
        ("secret_keys = ['short']\n", r"secret_keys\[0\]"),
        ("base_url = 'ftp://example.org'\n", "base_url"),
        ("database_url = 'not a url'\n", "database_url"),
        ("database_url = 'mysql://localhost/pbem'\n", "database_url"),
        ("[policies]\ndeadline_hours = 0\n", "policies.deadline_hours"),
        ("[policies]\ntimeout_policy = 'shrug'\n", "policies.timeout_policy"),
        ("[access]\ngame_creators = 'domains'\n", "access.creator_domains"),
        ("[access]\nadmin_emails = ['root']\n", r"access.admin_emails\[0\]"),
        ("trusted_proxies = -1\n", "trusted_proxies"),
        ("trusted_proxies = 6\n", "trusted_proxies"),
        ("[mail]\nbounces_per_day = -1\n", "mail.bounces_per_day"),
        ("[access]\ninvitations_per_day = 'many'\n", "access.invitations_per_day"),
        ("mail = 5\n", "mail"),
        ("language = 'fr'\n", "language"),
        ("language = 'DE'\n", "language"),
    ],
)
def test_bad_values_stop_start_up_naming_the_key(tmp_path: Path, text: str, named: str) -> None:
    with pytest.raises(ConfigError, match=named):
        load_config(write(tmp_path, instance(tmp_path) + text), environ={})


def test_missing_or_broken_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(tmp_path / "absent.toml", environ={})
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(write(tmp_path, "mode = \n"), environ={})


def test_environment_overrides_secrets(tmp_path: Path) -> None:
    path = write(tmp_path, instance(tmp_path) + "secret_keys = ['from-the-file-0123456789']\n")
    environ = {
        "PBEM_SECRET_KEYS": f" {STRONG} , {OLDER},",
        "PBEM_DATABASE_URL": "postgresql+psycopg://pbem@db.internal/pbem",
        "PBEM_SMTP_PASSWORD": "hunter2",
    }

    config = load_config(path, environ=environ)

    assert config.secret_keys == (STRONG, OLDER)
    assert config.database_url == "postgresql+psycopg://pbem@db.internal/pbem"
    assert config.mail.password == "hunter2"


def test_an_empty_secret_keys_variable_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="PBEM_SECRET_KEYS"):
        load_config(write(tmp_path, instance(tmp_path)), environ={"PBEM_SECRET_KEYS": " , "})


def test_production_refuses_to_start_without_secret_keys(tmp_path: Path) -> None:
    path = write(tmp_path, instance(tmp_path) + "mode = 'production'\nbase_url = 'https://pbem.example.org'\n")

    with pytest.raises(ConfigError, match="secret_keys"):
        load_config(path, environ={})
    assert not (tmp_path / "instance" / "secret_key").exists()


def test_production_refuses_to_start_without_a_base_url(tmp_path: Path) -> None:
    path = write(tmp_path, instance(tmp_path) + "mode = 'production'\n")

    with pytest.raises(ConfigError, match="base_url"):
        load_config(path, environ={"PBEM_SECRET_KEYS": STRONG})


def test_production_starts_with_keys_and_base_url(tmp_path: Path) -> None:
    path = write(tmp_path, instance(tmp_path) + "mode = 'production'\nbase_url = 'https://pbem.example.org/'\n")

    config = load_config(path, environ={"PBEM_SECRET_KEYS": STRONG})

    assert config.base_url == "https://pbem.example.org"
    assert config.secret_keys == (STRONG,)


def test_secrets_stay_out_of_the_printed_configuration(tmp_path: Path) -> None:
    config = load_config(
        write(tmp_path, instance(tmp_path)),
        environ={"PBEM_SECRET_KEYS": STRONG, "PBEM_SMTP_PASSWORD": "hunter2",
                 "PBEM_DATABASE_URL": "postgresql://pbem:dbpass@db/pbem"},
    )

    printed = repr(config)

    assert STRONG not in printed and "hunter2" not in printed and "dbpass" not in printed


def flatten(table: dict, prefix: str = "") -> set[str]:
    keys: set[str] = set()
    for key, value in table.items():
        if isinstance(value, dict):
            keys |= flatten(value, f"{prefix}{key}.")
        else:
            keys.add(prefix + key)
    return keys


def test_the_example_file_documents_every_key() -> None:
    with (REPO_ROOT / "config.example.toml").open("rb") as handle:
        documented = flatten(tomllib.load(handle))

    assert documented == set(known_keys())


def test_the_example_file_shows_the_real_defaults(tmp_path: Path) -> None:
    example = (REPO_ROOT / "config.example.toml").read_text().replace('instance_path = ""', "")
    with_example = load_config(write(tmp_path, instance(tmp_path) + example), environ={})
    without_file = load_config(write(tmp_path, instance(tmp_path)), environ={})

    assert with_example == without_file
    assert Config().mail == with_example.mail and Config().policies == with_example.policies


@pytest.mark.parametrize(
    ("access", "email", "allowed"),
    [
        ("", "anyone@example.net", False),
        ("", "Root@Admins.net", True),
        ("game_creators = 'anyone'\n", "anyone@example.net", True),
        ("game_creators = 'domains'\ncreator_domains = ['example.org']\n", "ann@Example.ORG", True),
        ("game_creators = 'domains'\ncreator_domains = ['example.org']\n", "eve@example.org.evil", False),
        ("game_creators = 'domains'\ncreator_domains = ['example.org']\n", "root@admins.net", True),
        ("game_creators = 'admins'\n", "ann@example.org", False),
        ("game_creators = 'admins'\n", "Root@Admins.net", True),
    ],
)
def test_who_may_create_games(tmp_path: Path, access: str, email: str, allowed: bool) -> None:
    path = write(tmp_path, instance(tmp_path) + "[access]\nadmin_emails = ['root@admins.net']\n" + access)

    assert load_config(path, environ={}).access.may_create_games(email) is allowed


def test_by_default_only_admins_create_games_and_no_proxy_is_trusted(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, instance(tmp_path)), environ={})

    assert config.access.game_creators == "admins"
    assert config.trusted_proxies == 0
    assert (config.access.invitations_per_client_per_day, config.access.invitations_per_day) == (40, 400)
    assert config.mail.bounces_per_day == 200


def test_the_abuse_limits_are_read(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        instance(tmp_path) + "trusted_proxies = 2\n[mail]\nbounces_per_day = 0\n"
        + "[access]\ninvitations_per_client_per_day = 3\ninvitations_per_day = 9\n",
    )

    config = load_config(path, environ={})

    assert (config.trusted_proxies, config.mail.bounces_per_day) == (2, 0)
    assert (config.access.invitations_per_client_per_day, config.access.invitations_per_day) == (3, 9)


def test_notifications_default_to_the_common_services_and_refuse_private_addresses(tmp_path: Path) -> None:
    notifications = load_config(write(tmp_path, instance(tmp_path)), environ={}).notifications

    assert notifications.enabled is True
    assert {"ntfy", "json", "discord", "matrix", "tgram"} <= set(notifications.allowed_schemes)
    assert notifications.allow_private_addresses is False


def test_notifications_are_read_from_their_section(tmp_path: Path) -> None:
    text = instance(tmp_path) + (
        '[notifications]\nenabled = false\nallowed_schemes = ["json"]\nallow_private_addresses = true\n'
    )
    notifications = load_config(write(tmp_path, text), environ={}).notifications

    assert (notifications.enabled, notifications.allowed_schemes, notifications.allow_private_addresses) == (
        False, ("json",), True
    )


@pytest.mark.parametrize(("text", "named"), [
    ('[notifications]\nallowed_schemes = ["JSON://"]\n', "notifications.allowed_schemes[0]"),
    ("[notifications]\nallow_private_addresses = 1\n", "notifications.allow_private_addresses"),
    ("[notifications]\ntimeout_seconds = 0\n", "notifications.timeout_seconds"),
    ("[notifications]\nwebhook = 1\n", "notifications.webhook"),
])
def test_bad_notification_settings_stop_start_up_naming_the_key(tmp_path: Path, text: str, named: str) -> None:
    with pytest.raises(ConfigError, match=named.replace(".", r"\.").replace("[", r"\[").replace("]", r"\]")):
        load_config(write(tmp_path, instance(tmp_path) + text), environ={})
