"""Where the application finds its files, from a checkout or from an installed wheel.

`templates/` and `migrations/` live at the top of the repository. A wheel carries them inside the package as
`pbem/_templates` and `pbem/_migrations` (pyproject.toml maps them); an editable install (`pip install -e .`)
has no such copies, so the checkout's own folders are read.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
REPO_ROOT = PACKAGE_DIR.parent  # the checkout; in an installed wheel, only site-packages


def data_dir(name: str) -> Path:
    """The folder `name` of the repository's top level: the wheel's copy if installed, else the checkout's."""
    packaged = PACKAGE_DIR / f"_{name}"
    return packaged if packaged.is_dir() else REPO_ROOT / name


TEMPLATES_DIR = data_dir("templates")
MIGRATIONS_DIR = data_dir("migrations")
INSTALLED = TEMPLATES_DIR != REPO_ROOT / "templates"
# Runtime state never goes into site-packages: an installed wheel keeps it where the command runs.
DEFAULT_INSTANCE_DIR = Path.cwd() / "instance" if INSTALLED else REPO_ROOT / "instance"
