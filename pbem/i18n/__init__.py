"""Languages: the reader's language and the translation of every word they read (gettext catalogues, Babel).

Python code marks and translates with `gettext`, `ngettext`, `pgettext` (`_` in templates); a module constant
read later with `lazy_gettext`. `in_language(code)` writes in a given language where no request chose one (an
email to a seat). pbem/web/languages.py chooses the language of each page.
"""

from pbem.i18n.catalogues import TRANSLATIONS_DIR, translations
from pbem.i18n.languages import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    SUPPORTED,
    browser_language,
    native_name,
    reading_language,
    supported,
)
from pbem.i18n.messages import (
    current_language,
    current_locale,
    gettext,
    in_language,
    install_translations,
    language_in_effect,
    lazy_gettext,
    lazy_ngettext,
    lazy_pgettext,
    ngettext,
    npgettext,
    pgettext,
)

_ = gettext

__all__ = [
    "DEFAULT_LANGUAGE", "LANGUAGES", "SUPPORTED", "TRANSLATIONS_DIR", "_", "browser_language", "current_language",
    "current_locale", "gettext", "in_language", "install_translations", "language_in_effect", "lazy_gettext",
    "lazy_ngettext", "lazy_pgettext", "native_name", "ngettext", "npgettext", "pgettext", "reading_language",
    "supported", "translations",
]
