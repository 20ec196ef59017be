"""The layers stay: the imports of every module, read with `ast`, point only downwards.

engine (the rules) <- pbem's lowest modules <- config <- models, db <- mail (the post office) <- service <- web, cli.
The drawing (pbem.drawing: cards and the board as SVG) is a room of its own below the service: the pages and the
letters both use it, and the runtime hands it to the letters, so the runtime needs nothing of the web.
The words (pbem.words: the game told in the reader's language) sit just above the engine and the languages.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(package: str) -> list[Path]:
    return sorted((ROOT / package.replace(".", "/")).rglob("*.py"))


@cache
def imports(path: Path) -> frozenset[str]:
    """Every module `path` imports, anywhere in it (at the top, in a function, under TYPE_CHECKING)."""
    found: set[str] = set()
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)  # `from pbem import config` names a module
    return frozenset(found)


def arrows(package: str) -> Iterator[tuple[str, str]]:
    for path in modules(package):
        for target in imports(path):
            yield module_name(path), target


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def pbem_modules_imported_by(path: Path) -> set[str]:
    known = {module_name(module) for module in modules("pbem")}
    return {target for target in imports(path) if target in known}


def test_the_post_office_imports_nothing_from_the_service() -> None:
    back = [(source, target) for source, target in arrows("pbem.mail") if within(target, "pbem.service")]

    assert back == []


@pytest.mark.parametrize("package", ["pbem.mail", "pbem.service", "pbem.models"])
def test_nothing_below_the_wiring_builds_the_runtime_or_reaches_for_the_web(package: str) -> None:
    upward = ("pbem.runtime", "pbem.web", "pbem.cli", "pbem.scheduler")
    back = [(source, target) for source, target in arrows(package) if any(within(target, up) for up in upward)]

    assert back == []


def test_the_wiring_imports_nothing_from_the_web() -> None:
    """The web app factory builds the runtime, never the other way round: the emails' board comes from the drawing."""
    back = [target for target in imports(ROOT / "pbem" / "runtime.py") if within(target, "pbem.web")]

    assert back == []


def test_the_drawing_imports_nothing_of_pbem_but_itself() -> None:
    """So nothing of the web, the service or the post office: pages and letters draw with the same pure functions."""
    assert modules("pbem.drawing")
    back = [
        (source, target) for source, target in arrows("pbem.drawing")
        if within(target, "pbem") and not within(target, "pbem.drawing")
    ]

    assert back == []


def test_the_configuration_imports_only_pbem_modules_that_import_nothing_from_pbem() -> None:
    config = ROOT / "pbem" / "config.py"
    lowest = {
        name for name in pbem_modules_imported_by(config)
        if not pbem_modules_imported_by(ROOT / (name.replace(".", "/") + ".py"))
    }

    assert pbem_modules_imported_by(config) - {"pbem"} == lowest


def test_the_engine_knows_nothing_of_the_server_the_web_or_the_database() -> None:
    server = ("pbem", "flask", "sqlalchemy", "jinja2", "werkzeug")
    back = [(source, target) for source, target in arrows("engine") if any(within(target, up) for up in server)]

    assert back == []


def test_the_engine_holds_no_language() -> None:
    """Refusals are codes with params and events are data: the words live in pbem/words, in the reader's language."""
    languages = ("gettext", "locale", "babel", "flask_babel", "pbem")
    back = [(source, target) for source, target in arrows("engine") if any(within(target, up) for up in languages)]

    assert back == []


def test_the_words_import_nothing_of_pbem_but_the_languages_the_drawing_and_themselves() -> None:
    """So the pages, the letters and the log all tell the game in the same words, one home per word (the board's
    drawing, which imports nothing of pbem, is handed the words it draws)."""
    assert modules("pbem.words")
    back = [
        (source, target) for source, target in arrows("pbem.words")
        if within(target, "pbem")
        and not any(within(target, own) for own in ("pbem.words", "pbem.i18n", "pbem.drawing"))
    ]

    assert back == []


# Loops between the service's rooms (its subpackages and top-level modules) not yet undone; keep it short.
SERVICE_LOOPS_NOT_YET_UNDONE: frozenset[frozenset[str]] = frozenset()


def service_room(name: str) -> str | None:
    """The room of the service a module is in: `pbem.service.turns.games` is in `turns`."""
    parts = name.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["pbem", "service"] else None


def service_loops() -> set[frozenset[str]]:
    """Every set of the service's rooms that reach one another through imports (TYPE_CHECKING ones included)."""
    known = {module_name(module) for module in modules("pbem.service")}
    reach: dict[str, set[str]] = {}
    for source, target in arrows("pbem.service"):
        here, there = service_room(source), service_room(target)
        if here and there and here != there and target in known:
            reach.setdefault(here, set()).add(there)
    changed = True
    while changed:  # the transitive closure: a handful of rooms
        changed = False
        for theres in reach.values():
            more = set().union(*(reach.get(there, set()) for there in theres)) - theres
            if more:
                theres |= more
                changed = True
    return {frozenset({here} | {there for there in theres if here in reach.get(there, set())})
            for here, theres in reach.items() if here in theres}


def test_no_import_loop_between_the_services_rooms() -> None:
    """Each room of the service stands on the ones below it: an orchestrator lives above what it calls."""
    assert service_loops() <= SERVICE_LOOPS_NOT_YET_UNDONE


def test_the_loop_finder_sees_a_loop_where_there_is_one() -> None:
    """The guard itself: it names rooms as meant and reads an arrow known to exist between two of them."""
    assert service_room("pbem.service.turns.games") == "turns" and service_room("pbem.runtime") is None
    assert ("pbem.service.sweep", "pbem.service.turns.timeouts") in set(arrows("pbem.service"))


def test_the_walk_sees_an_arrow_where_there_is_one() -> None:
    """The guard itself: the arrows it reads include ones known to exist, so an empty list above means something."""
    found = set(arrows("pbem"))

    assert ("pbem.runtime", "pbem.mail.outbox") in found
    assert ("pbem.service.talk.replies", "pbem.mail.inbound") in found
    assert ("pbem.config", "pbem.addresses") in found
    assert ("pbem.words.board", "pbem.drawing.board_svg") in found
    assert ("pbem.drawing.board_svg", "pbem.drawing.card_art") in found


def module_circles(*packages: str) -> list[set[str]]:
    """Every set of two or more modules that import one another, round and round (Tarjan's strongly connected
    components over the imports of `packages`, each import of a module of theirs an arrow; a package a module sits
    in is imported before it anyway, so `from pbem import config` in pbem/db.py is no arrow to pbem/__init__.py)."""
    known = {module_name(path) for package in packages for path in modules(package)}
    reach: dict[str, set[str]] = {name: set() for name in known}
    for package in packages:
        for source, target in arrows(package):
            if target in known and not within(source, target):
                reach[source].add(target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[set[str]] = []

    def visit(name: str) -> None:
        index[name] = low[name] = len(index)
        stack.append(name)
        for there in reach[name]:
            if there not in index:
                visit(there)
                low[name] = min(low[name], low[there])
            elif there in stack:
                low[name] = min(low[name], index[there])
        if low[name] == index[name]:
            component = set()
            while True:
                member = stack.pop()
                component.add(member)
                if member == name:
                    break
            if len(component) > 1:
                circles.append(component)

    for name in sorted(known):
        if name not in index:
            visit(name)
    return circles


def test_no_two_modules_import_each_other_round_and_round() -> None:
    """No circle of imports anywhere in the application or the engine, not even through an import inside a function
    (a module that imports another which imports it back)."""
    assert module_circles("pbem", "engine") == []


def test_the_circle_finder_sees_a_circle_where_there_is_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """The guard itself: two modules made to import each other are one circle."""
    player = ROOT / "pbem/web/player.py"
    real = imports.__wrapped__

    def with_a_circle(path: Path) -> frozenset[str]:
        return real(path) | ({"pbem.web.chat"} if path == player else set())  # chat.py imports player.py

    monkeypatch.setattr(sys.modules[__name__], "imports", with_a_circle)
    assert {"pbem.web.chat", "pbem.web.player"} in module_circles("pbem")
