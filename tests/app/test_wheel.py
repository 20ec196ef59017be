"""The built wheel installs anywhere: in a fresh virtual environment far from the checkout, the installed `pbem`
migrates its database, starts a demo game and serves the home page, the rules and the demo's turn page, reading
templates, migrations and static files from the wheel alone."""

from __future__ import annotations

import http.client
import http.cookiejar
import os
import re
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from pbem.paths import REPO_ROOT
from tests.support.mail import free_port
from tests.support.servers import pbem_server

pytestmark = pytest.mark.slow

INSTALL_SECONDS = 600  # the first run fetches the dependencies; pip's cache makes later runs quick
LINK = re.compile(r"https?://[^\s\"'<>)]+")


def run(*args: str | Path, cwd: Path, env: dict[str, str] | None = None) -> str:
    result = subprocess.run([str(arg) for arg in args], cwd=cwd, env=env, capture_output=True, text=True,
                            timeout=INSTALL_SECONDS)
    assert result.returncode == 0, f"{args}: {result.stdout}\n{result.stderr}"
    return result.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A virtual environment holding the wheel built from this checkout, and nothing of the checkout itself."""
    wheels = tmp_path_factory.mktemp("wheels")
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", wheels, REPO_ROOT, cwd=wheels)
    (wheel,) = wheels.glob("saboteur_pbem-*.whl")
    venv = tmp_path_factory.mktemp("venv")
    run(sys.executable, "-m", "venv", venv, cwd=venv)
    run(venv / "bin" / "python", "-m", "pip", "install", "--quiet", "--disable-pip-version-check", wheel, cwd=venv)
    return venv


@pytest.fixture
def site(installed: Path, tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A folder far from the checkout with a config file putting the instance (and its database) in it, and an
    environment naming nothing of the checkout."""
    (tmp_path / "config.toml").write_text(f'instance_path = "{tmp_path / "instance"}"\n')
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("PBEM_", "PYTHON", "COVERAGE_", "VIRTUAL_ENV")) and key != "PORT"}
    env["PBEM_CONFIG"] = str(tmp_path / "config.toml")
    return tmp_path, env


@pytest.fixture
def server(installed: Path, site: tuple[Path, dict[str, str]]) -> Iterator[str]:
    """The installed `pbem run` on a free port, migrated first, until the test ends."""
    folder, env = site
    run(installed / "bin" / "pbem", "db", "upgrade", cwd=folder, env=env)
    port = free_port()
    log = folder / "pbem-run.log"
    with pbem_server([installed / "bin" / "pbem", "run", "--port", str(port)], port, env=env, log=log,
                     cwd=folder) as url:
        yield url



def page(link: str, browser: urllib.request.OpenerDirector | None = None) -> str:
    with (browser or urllib.request.build_opener()).open(link, timeout=10) as response:
        assert response.status == 200, link
        return str(response.read().decode("utf-8"))


def test_the_installed_wheel_reads_its_files_from_itself(installed: Path, site: tuple[Path, dict[str, str]]) -> None:
    folder, env = site
    found = run(installed / "bin" / "python", "-c",
                "from pbem import paths; print(paths.TEMPLATES_DIR); print(paths.MIGRATIONS_DIR); "
                "print(paths.DEFAULT_INSTANCE_DIR)", cwd=folder, env=env).split()
    templates, migrations, instance = map(Path, found)
    assert templates.is_relative_to(installed) and (templates / "play" / "table.html").is_file()
    assert migrations.is_relative_to(installed) and (migrations / "env.py").is_file()
    assert instance == folder / "instance"


def test_the_installed_wheel_serves_a_demo_game(installed: Path, site: tuple[Path, dict[str, str]],
                                                server: str) -> None:
    folder, env = site
    demo = run(installed / "bin" / "pbem", "demo", cwd=folder, env=env)
    (link,) = [link for link in LINK.findall(demo) if link.startswith(server)]

    home = page(f"{server}/")
    rules = page(f"{server}/rules")
    turn = page(link, urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())))

    assert "Saboteur" in home and "/static/" in home
    assert "<svg" in rules and "Rockfall" in rules
    assert "<svg" in turn and "hand" in turn.casefold()
    stylesheet = re.search(r'href="(/static/[^"?]+\.css)', home)
    assert stylesheet is not None and "{" in page(f"{server}{stylesheet.group(1)}")


def test_the_installed_wheel_speaks_german_and_korean(installed: Path, server: str) -> None:
    """The wheel carries the compiled catalogues (hatch_build.py compiles them: they are not committed)."""
    read = {language: urllib.request.Request(f"{server}/", headers={"Accept-Language": language})
            for language in ("de", "ko")}

    german, korean = (page(request) for request in read.values())  # type: ignore[arg-type]

    assert '<html lang="de">' in german and "Saboteur, per E-Mail gespielt" in german
    assert '<html lang="ko">' in korean and "사보추어, 이메일로 함께하기" in korean
