# Venture: `make run` serves the game on http://127.0.0.1:8000, `make test` lints and tests it.
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
.PHONY: help venv dev-venv run test lint format clean chromium

help:
	@echo "make run     serve Venture on http://127.0.0.1:8000 (daphne)"
	@echo "make test    lint (ruff) and run the test suite (pytest)"
	@echo "make lint    ruff check + ruff format --check"
	@echo "make format  ruff format + ruff check --fix"
	@echo "make venv    create .venv with the runtime requirements"
	@echo "make clean   remove .venv, collected static files and caches"

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
	$(VPY) -m daphne -b 127.0.0.1 -p 8000 game.asgi:application

# The browser tests drive Debian's Chromium (never `playwright install`).
chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; \
	  else \
	    echo "note: /usr/bin/chromium is missing and we are not root; browser tests will fail or skip" >&2; \
	  fi; \
	fi

# The browser tests (marker e2e) run in their own pytest invocation: Playwright's event loop
# must not share a process with the async consumer tests (its sync API runs an event loop of
# its own in the test thread).
test: dev-venv chromium
	$(VPY) -m ruff check .
	$(VPY) -m ruff format --check .
	$(VPY) -m pytest -m "not e2e" -n 2
	$(VPY) -m pytest -m e2e tests/e2e

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
