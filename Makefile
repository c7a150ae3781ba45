# Two commands for a fresh Linux machine with Python 3.11+:  `make run`  and  `make test`.
# Everything installs into .venv from pyproject.toml. Extra pytest arguments: make test ARGS="-k login -x"

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
HOST   ?= 127.0.0.1
PORT   ?= 8000
ARGS   ?=

.PHONY: help run test serve migrate demo lint typecheck check-deploy bench clean

help:
	@echo "make run    - install, migrate, load demo data, serve http://$(HOST):$(PORT)/ with the phase sweeper (Celery worker and beat instead if REDIS_URL is set)"
	@echo "make test   - install with test extras and run the whole pytest suite (ARGS=... passes pytest arguments)"
	@echo "make lint   - ruff;  make typecheck - mypy --strict rules/"
	@echo "make bench  - benchmarks, one table (PostgreSQL + Redis; see docs/performance.md; ARGS=--quick)"

$(PY):
	$(PYTHON) -c 'import sys; sys.exit("Python >= 3.11 needed, this is " + sys.version) if sys.version_info < (3, 11) else None'
	$(PYTHON) -m venv $(VENV)

# Reinstall when pyproject.toml changes; the stamp files remember which extras are in.
$(VENV)/.stamp-dev: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[dev]'
	@touch $@

$(VENV)/.stamp-test: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[test,dev]'
	@touch $@

migrate: $(VENV)/.stamp-dev
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py load_demo

# With REDIS_URL: web + Celery worker + beat under honcho (Procfile.dev). Without: web + the phase sweeper
# (`manage.py sweep_phases`, beat's every-minute sweep: overdue deadlines close) under honcho
# (Procfile.embedded), and tasks run in-process after commit. Ctrl-C stops them all.
run: demo
	@if [ -n "$$REDIS_URL" ]; then \
		echo "REDIS_URL is set: starting web, Celery worker and beat (Procfile.dev)"; \
		HOST=$(HOST) PORT=$(PORT) exec $(VENV)/bin/honcho -f Procfile.dev start; \
	else \
		echo "REDIS_URL unset: Celery tasks run in-process; starting web and the phase sweeper (Procfile.embedded). Serving http://$(HOST):$(PORT)/"; \
		HOST=$(HOST) PORT=$(PORT) PYTHONUNBUFFERED=1 exec $(VENV)/bin/honcho -f Procfile.embedded start; \
	fi

serve: $(VENV)/.stamp-dev
	$(PY) manage.py runserver $(HOST):$(PORT)

# pytest exits 5 when it collected nothing: that is a failure here too.
test: $(VENV)/.stamp-test
	@$(PY) -m pytest $(ARGS); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make test: pytest collected no tests - failing" >&2; fi; \
	exit $$rc

lint: $(VENV)/.stamp-test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: $(VENV)/.stamp-test
	$(VENV)/bin/mypy --strict rules/

check-deploy: $(VENV)/.stamp-dev
	DJANGO_ENV=production SECRET_KEY=$$($(PY) -c 'import secrets; print(secrets.token_urlsafe(50))') \
		ALLOWED_HOSTS=navalwar.example.org $(PY) manage.py check --deploy --fail-level WARNING

# Benchmarks, not tests (about two minutes; docs/performance.md). PostgreSQL and Redis from DATABASE_URL and
# REDIS_URL, defaults postgres://postgres@127.0.0.1:5432/navalwar_bench (recreated: its name must contain
# "bench") and redis://127.0.0.1:6379/9. wrk drives the web load; without it (no root for apt-get) a Python
# load generator does. ARGS passes options: make bench ARGS="--quick" or ARGS="--only rules".
bench: $(VENV)/.stamp-dev
	@command -v wrk >/dev/null 2>&1 || { \
		echo "make bench: installing wrk with apt-get"; \
		{ apt-get install -y -qq wrk || { apt-get update -qq && apt-get install -y -qq wrk; }; } >/dev/null 2>&1 \
		|| echo "make bench: wrk is not available: the Python load generator will be used"; }
	$(PY) bench/run_all.py $(ARGS)

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache .ruff_cache
