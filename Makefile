# Two commands for people: `make run` (play locally) and `make test` (the whole suite).
# Both build the same virtual environment; installs are skipped while pyproject.toml is unchanged.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# The stamp is named after pyproject.toml's content, so editing dependencies reinstalls and nothing else does.
STAMP  := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)

# Debian packages the test suite needs: Chromium's headless shell for the browser tests, Dovecot for the IMAP tests,
# Java for the Nu HTML checker (vnu.jar, from the test extras) that reads every page; a Korean font, so that the
# browser tests and pictures of Korean pages draw its letters (and measure them) as a reader's browser would.
SYSTEM_PACKAGES := chromium-headless-shell dovecot-imapd default-jre-headless fonts-nanum

.PHONY: run test screenshots env system-packages catalogues messages pot

# PORT=5001 make run serves on another port (macOS keeps 5000 for AirPlay); links printed and emailed name it.
# The demo comes before the server, so it is told the address; the server records it in instance/base_url for
# every command run after it.
PORT ?= 5000
run: env catalogues
	$(BIN)/pbem db upgrade
	PBEM_BASE_URL=$${PBEM_BASE_URL:-http://127.0.0.1:$(PORT)} $(BIN)/pbem demo
	$(BIN)/pbem run --port $(PORT)

# Python keeps compiled modules (and pytest its rewritten test modules) under the virtual environment, even where
# the environment says not to write them: each test process would otherwise compile every module again.
unexport PYTHONDONTWRITEBYTECODE
export PYTHONPYCACHEPREFIX := $(CURDIR)/$(VENV)/pycache

# The tests run in TEST_WORKERS processes (pytest-xdist), each taking the next test as it finishes one; the long
# tests (marked slow) are handed out first. pytest exits 5 when it collects no test, so that never passes. The full
# runs behind a sampled test are opt-in and never run here: `$(BIN)/pytest -m exhaustive` (docs/performance.md).
TEST_WORKERS ?= 3
# The tests' files (SQLite databases, mail folders, browser profiles) live in memory where the machine has a tmpfs:
# SQLite waits for the disk at every commit, and no test's files have to outlive the machine.
TEST_TMPDIR ?= $(if $(wildcard /dev/shm/.),/dev/shm,$(TMPDIR))

test: env system-packages catalogues
	$(BIN)/ruff check .
	$(BIN)/mypy
	TMPDIR=$(TEST_TMPDIR) $(BIN)/pytest -n $(TEST_WORKERS) --dist worksteal

# The browser tests again, saving a full-page picture of every page they check (artifacts/screenshots/).
screenshots: env system-packages
	PBEM_SCREENSHOTS=1 $(BIN)/pytest -n $(TEST_WORKERS) --dist worksteal -m browser

env: $(STAMP)

# The translations (CONTRIBUTING.md, "Adding a language"): each language's catalogue
# pbem/translations/<lang>/LC_MESSAGES/messages.po, compiled here to the .mo the server reads (not committed).
# `make messages` gathers every word marked for translation (babel.cfg) into the template messages.pot and merges it
# into each catalogue, where the new words wait for their translation (empty: no guess from a similar word).
TRANSLATIONS := pbem/translations
CATALOGUES := $(wildcard $(TRANSLATIONS)/*/LC_MESSAGES/messages.po)
# N_ (a default), NP_ and NN_ mark words for later (pbem/words/table.py).
BABEL_KEYWORDS := -k lazy_gettext -k lazy_ngettext:1,2 -k lazy_pgettext:1c,2 -k NP_:1c,2 -k NN_:1,2
POT ?= $(TRANSLATIONS)/messages.pot

catalogues: $(CATALOGUES:.po=.mo)

$(TRANSLATIONS)/%/LC_MESSAGES/messages.mo: $(TRANSLATIONS)/%/LC_MESSAGES/messages.po | env
	$(BIN)/python -m pbem.i18n.compiling $<

# The template alone (tests/app/test_catalogues.py extracts it too, to check each catalogue is complete for it).
pot:
	$(BIN)/pybabel -q extract -F babel.cfg $(BABEL_KEYWORDS) -c TRANSLATORS: --sort-by-file --no-wrap \
		--project=saboteur-pbem -o $(POT) .

messages: env pot
	$(BIN)/pybabel -q update --no-wrap --ignore-obsolete --no-fuzzy-matching -i $(POT) -d $(TRANSLATIONS)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	rm -f $(VENV)/.installed-*
	touch $@

system-packages:
	@missing=""; for p in $(SYSTEM_PACKAGES); do dpkg -s "$$p" >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing Debian packages:$$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
