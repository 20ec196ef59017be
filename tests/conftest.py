"""The shared fixtures live in tests/support/, one module per harness, loaded here as plugins."""

pytest_plugins = [
    "tests.support.database",
    "tests.support.games",
    "tests.support.mail",
    "tests.support.web",
    "tests.support.browser",
    "tests.support.imap",
]
