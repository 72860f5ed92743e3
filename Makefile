# Ziggurat: `make run` starts everything and shows bots playing; `make test` runs the suite.
# Both create the virtual environment and install what they need on first use.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PYTEST_WORKERS ?= 2
# The web client's linter and formatter (Biome): a devDependency of services/web,
# installed by npm ci from its lock file on first use. No build step: it only checks.
WEB    := services/web
BIOME  := $(WEB)/node_modules/.bin/biome

.PHONY: install run check test test-slow lint format web-check bench bench-engines bench-peer bench-durability bench-failover bench-spectators openapi asyncapi clean screenshots

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

$(BIOME): $(WEB)/package.json $(WEB)/package-lock.json
	@command -v npm >/dev/null 2>&1 || { echo "npm was not found: the web client's checks (Biome, $(WEB)/package.json) need Node.js 20 and npm; install them (https://nodejs.org) and run make again." >&2; exit 1; }
	cd $(WEB) && npm ci --no-audit --no-fund --loglevel=error
	touch $(BIOME)

# The whole client linted and its formatting checked (`make format` applies both).
web-check: $(BIOME)
	cd $(WEB) && ./node_modules/.bin/biome ci .

run: $(STAMP)
	$(BIN)/ziggurat run

# The browser tests (marker `browser`) run apart: Playwright's sync API keeps an
# event loop running in its worker, which the asyncio tests cannot share.
test: $(STAMP) web-check
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(BIN)/python -m pytest -q -n $(PYTEST_WORKERS) --dist loadgroup -m 'not slow and not browser'
	$(BIN)/python -m pytest -q -n $(PYTEST_WORKERS) --dist loadgroup -m 'browser and not slow'

# The quick loop while working: the static checks and the tests that need no
# Valkey, no services and no browser, chosen by marker (a test's level is its
# marker, not its folder). `make test` runs everything.
check: $(STAMP) web-check
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(BIN)/python -m pytest -q -n 2 -m 'not slow and not integration and not e2e and not browser and not chaos'

test-slow: $(STAMP)
	$(BIN)/python -m pytest -q -n $(PYTEST_WORKERS) --dist loadgroup -m slow

lint: $(STAMP)
	$(BIN)/ruff check .

format: $(STAMP) $(BIOME)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .
	cd $(WEB) && ./node_modules/.bin/biome check --write .

screenshots: $(STAMP)
	ZIGGURAT_SCREENSHOTS=docs $(BIN)/python -m pytest -q tests/web/test_mid_game.py tests/web/test_languages_games.py -k "screenshot or photographed"

bench: $(STAMP)
	$(BIN)/python -m bench.targets

bench-engines: $(STAMP)
	$(BIN)/python -m bench.engines

# Tigris flat out under each durability level on a replicated store, as ratios to local (~5 min).
bench-durability: $(STAMP)
	$(BIN)/python -m bench.durability

# A primary of a replicated cluster SIGKILLed under load, under local and replicated (~4 min).
bench-failover: $(STAMP)
	$(BIN)/python -m bench.failover

# Ziggurat against boardgame.io's server on the same game (needs Node.js and npm).
bench-peer: $(STAMP)
	$(BIN)/python -m bench.peer

# 2,000 and 10,000 spectators' live feeds on one gateway: a move to every feed, memory per feed.
bench-spectators: $(STAMP)
	$(BIN)/python -m bench.spectators

openapi: $(STAMP)
	$(BIN)/python -c "import json; from services.gateway.openapi import spec; print(json.dumps(spec(), indent=2))" > docs/openapi.json

asyncapi: $(STAMP)
	$(BIN)/python -c "import json; from services.gateway.asyncapi import spec; print(json.dumps(spec(), indent=2))" > docs/asyncapi.json

clean:
	rm -rf var .pytest_cache .ruff_cache
