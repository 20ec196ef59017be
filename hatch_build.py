"""The wheel carries the compiled catalogues: each pbem/translations/<lang>/LC_MESSAGES/messages.po compiled to its
.mo at build time (the .mo files are not committed, so a wheel built from a fresh clone has them too)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CompiledCatalogues(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if version == "editable":  # an editable install reads the checkout's own .mo files (`make`)
            return
        compiled = Path(tempfile.mkdtemp(prefix="pbem-catalogues-"))
        for source in sorted(Path(self.root, "pbem", "translations").glob("*/LC_MESSAGES/messages.po")):
            language = source.parent.parent.name
            with source.open("rb") as handle:
                catalogue = read_po(handle, locale=language)
            target = compiled / language / "messages.mo"
            target.parent.mkdir(parents=True)
            with target.open("wb") as handle:
                write_mo(handle, catalogue)  # fuzzy entries left out, as `pybabel compile` does
            build_data["force_include"][str(target)] = f"pbem/translations/{language}/LC_MESSAGES/messages.mo"
