"""Where the application finds its files: everything is relative to the repository root.

The project is installed editable (`pip install -e .`), so `templates/` and `migrations/` are read
from the checkout rather than copied into site-packages.
"""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
TEMPLATES_DIR = REPO_ROOT / "templates"
MIGRATIONS_DIR = REPO_ROOT / "migrations"
DEFAULT_INSTANCE_DIR = REPO_ROOT / "instance"
