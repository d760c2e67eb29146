# Venture: `make run` serves the game on http://127.0.0.1:8000, `make test` lints and tests it
# quickly, `make test-all` lints and runs every test there is (what CI runs).
#
# The two speeds of the suite (markers in pyproject.toml, sizes in tests/sizes.py):
#   make test      ruff, then every test not marked slow, scale or e2e, the property tests at
#                  their small size (VENTURE_TEST_SIZE=small): the command to run while working.
#   make test-all  ruff, every test but scale and e2e with the property tests at full size
#                  (slow ones included), the scale tests alone, the web tests again on
#                  PostgreSQL, then the browser tests in a process of their own.
#
# Everything runs from .venv, built with the repo's Python. pyenv reads .python-version
# (3.12.1) inside the repo, so the plain `python3` here is 3.12; override with PYTHON=...
# Requirements are reinstalled only when a requirements file changes (stamp files in .venv).

PYTHON ?= python3
VENV := .venv
VPY := $(VENV)/bin/python
RUNTIME_STAMP := $(VENV)/runtime.stamp
DEV_STAMP := $(VENV)/dev.stamp

.DEFAULT_GOAL := help
.PHONY: help venv dev-venv run test test-all test-postgresql lint format clean chromium

help:
	@echo "make run     serve Venture on http://127.0.0.1:8000 (daphne)"
	@echo "make test        lint (ruff) and the fast tests: all but those marked slow, scale, e2e"
	@echo "make test-all    lint and every test: full-size property tests, slow, scale, the web"
	@echo "                 tests on PostgreSQL, the browser tests (what .ci/run runs)"
	@echo "make lint        ruff check + ruff format --check"
	@echo "make format      ruff format + ruff check --fix"
	@echo "make venv        create .venv with the runtime requirements"
	@echo "make clean       remove .venv, collected static files and caches"

# Django 6 needs Python >= 3.12; the pins were made on 3.12.1.
$(VPY):
	@found=$$($(PYTHON) -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])' 2>/dev/null || echo "no $(PYTHON)"); \
	case "$$found" in \
	  3.12.*) ;; \
	  *) echo "Venture needs Python 3.12 (found $$found); install 3.12.1 with pyenv, .python-version selects it" >&2; exit 1 ;; \
	esac
	$(PYTHON) -m venv $(VENV)

# A .venv left over from another Python is refused rather than silently reused.
define check_venv_python
	@found=$$($(VPY) -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])'); \
	case "$$found" in \
	  3.12.*) ;; \
	  *) echo "Venture needs Python 3.12 (found $$found in $(VENV)); run 'make clean' and try again" >&2; exit 1 ;; \
	esac
endef

$(RUNTIME_STAMP): requirements.txt | $(VPY)
	$(check_venv_python)
	$(VPY) -m pip install -r requirements.txt
	touch $@

$(DEV_STAMP): requirements.txt requirements-dev.txt | $(VPY)
	$(check_venv_python)
	$(VPY) -m pip install -r requirements-dev.txt
	touch $@ $(RUNTIME_STAMP)

venv: $(RUNTIME_STAMP)

dev-venv: $(DEV_STAMP)

run: venv
	$(VPY) manage.py migrate --noinput
	$(VPY) manage.py collectstatic --noinput
	@# Daphne, then "Venture is serving on http://127.0.0.1:8000" once it listens.
	$(VPY) manage.py serve --host 127.0.0.1 --port 8000

# The browser tests drive Debian's Chromium (never `playwright install`).
chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; \
	  else \
	    echo "note: /usr/bin/chromium is missing and we are not root; browser tests will fail or skip" >&2; \
	  fi; \
	fi

test: lint
	$(VPY) -m pytest -m "not slow and not scale and not e2e" -n 2

# The scale tests run alone: each starts several server processes (and a database and a Redis
# prefix of its own), which would crowd two workers' other tests. The browser tests (marker e2e) run in their own
# pytest invocation: Playwright's event loop must not share a process with the async consumer
# tests (its sync API runs an event loop of its own in the test thread).
test-all: lint chromium
	VENTURE_TEST_SIZE=full $(VPY) -m pytest -m "not scale and not e2e" -n 2
	$(VPY) -m pytest -m scale
	$(MAKE) test-postgresql
	$(VPY) -m pytest -m e2e tests/e2e

# The web tests again with Django itself on PostgreSQL, the database of a deployment, on a
# database of this run's own (PostgreSQL on 127.0.0.1:5432, user postgres, trust auth, as
# .ci/run starts it; it is started here when installed and down). What differs from SQLite is
# not only the SQL: game/runtime/prepared.py sends an action's statements in psycopg's pipeline
# mode (errors and row counts arrive at the end of the batch), and a JSON column gives back its
# keys sorted. Left out are the tests whose weight is the engine and the rendering, not the
# database (they scan every frame or replay point of long games, or compare memoised
# renders): through the same services as the tests kept, they would add minutes of CPU and no
# SQL of their own. pytest-django makes test_<name>_gw0 and _gw1 (one per worker); they are
# dropped afterwards, as its own teardown cannot while the pool's threads hold connections.
ON_SQLITE_ONLY := \
	tests/web/test_hidden_information.py \
	tests/web/test_board_memo.py \
	tests/web/test_render_batch.py \
	tests/web/test_replays.py::test_no_byte_of_a_running_games_replay_names_a_card_its_viewer_may_not_know \
	tests/web/test_computer.py::test_a_whole_game_against_the_computer_replays_exactly

DROP_DATABASE := import sys; from bench import _servers; _servers.drop_database(sys.argv[1])

test-postgresql: dev-venv
	@$(VPY) -c 'import sys; from bench import _servers; sys.exit(_servers.ensure_postgres())'
	db=venture_web_$$$$; \
	REDIS_URL= DATABASE_URL=postgres://postgres@127.0.0.1:5432/$$db \
	  $(VPY) -m pytest -p no:cacheprovider --create-db -n 2 tests/web \
	  -W "ignore:Error when trying to teardown test databases" \
	  $(addprefix --deselect=,$(ON_SQLITE_ONLY)); \
	status=$$?; \
	for n in 0 1; do $(VPY) -c "$(DROP_DATABASE)" test_$${db}_gw$$n; done; \
	exit $$status

lint: dev-venv
	$(VPY) -m ruff check .
	$(VPY) -m ruff format --check .

format: dev-venv
	$(VPY) -m ruff format .
	$(VPY) -m ruff check --fix .

# Keeps db.sqlite3: it holds the games played locally.
clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache test-artifacts
	rm -f test_db.sqlite3*
	find . -path ./.git -prune -o -type d -name __pycache__ -prune -exec rm -rf {} +
