"""Every email in one catalogue (pbem/service/emails.py): each kind has its two templates, and every
template of an email belongs to a kind; a subject is written there and nowhere else."""

from __future__ import annotations

import re
from pathlib import Path

from pbem.paths import TEMPLATES_DIR
from pbem.service.emails import LETTERS, PLAYER_DAILY, SPECTATOR_ROUND_END, OwnLetter

PBEM = Path(__file__).resolve().parents[2] / "pbem"


def test_every_kind_has_a_text_and_an_html_template_and_every_template_a_kind() -> None:
    for letter in LETTERS.values():
        assert all((Path(TEMPLATES_DIR) / name).is_file() for name in letter.templates), letter.kind
    templates = {path.stem for path in (Path(TEMPLATES_DIR) / "email").glob("[a-z]*.*")}
    assert templates == set(LETTERS)


def test_a_subject_of_its_own_is_written_in_the_catalogue_alone() -> None:
    written = [
        f"{path.relative_to(PBEM)}:{number}"
        for path in PBEM.rglob("*.py") if path.name != "emails.py"
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if re.search(r"""subject=f?["'][A-Za-z{]""", line)
    ]
    assert written == []


def test_a_kind_is_named_by_its_entry_not_by_a_string_at_the_call() -> None:
    named = [
        f"{path.relative_to(PBEM)}:{number}"
        for path in PBEM.rglob("*.py")
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if re.search(r"""(kind|mail_kind)=["'][a-z_]+["'],?$""", line.strip()) and "sender_kind" not in line
    ]
    assert named == [], named


def test_subjects_say_what_the_email_is() -> None:
    assert PLAYER_DAILY.subject(2) == "Your turn in 2 games - Saboteur"
    assert PLAYER_DAILY.subject(0) == "News from your games - Saboteur"
    assert SPECTATOR_ROUND_END.subject(3, "Friday mine") == "Round 3 of Friday mine is over - Saboteur"
    assert all(isinstance(letter, OwnLetter) == hasattr(letter, "subject") for letter in LETTERS.values())


def test_every_style_of_an_email_is_one_of_the_named_looks() -> None:
    email = Path(TEMPLATES_DIR) / "email"
    named = set(re.findall(r'^    "(\w+)": "', (email / "_look.html").read_text(), re.M))
    for path in set(email.glob("*.html")) - {email / "_look.html"}:
        text = path.read_text()
        assert not re.findall(r'style="(?!\{\{ look\.\w+ \}\}")', text), f"{path.name} writes a style by hand"
        assert set(re.findall(r"\{\{ look\.(\w+) \}\}", text)) <= named, path.name
