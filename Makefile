# Two commands do all set-up on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench clean browser

# The class view's browser tests drive Debian's chromium through chromium-driver (a browser cannot be
# downloaded at install time): installed here when root and apt are available, else one line says so.
browser:
	@if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "installing chromium and chromium-driver for the class view's browser tests"; \
		{ apt-get update -qq >/dev/null 2>&1; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null 2>&1; } \
		|| echo "could not install chromium and chromium-driver: the class view's browser tests will be skipped"; \
	else echo "chromium and chromium-driver are missing (apt-get install chromium chromium-driver as root): the class view's browser tests will be skipped"; fi

$(STAMP): pyproject.toml
	@echo "Setting up $(VENV): Python packages (OpenCV, Qt, AprilTags...), about a minute on a fresh machine"
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/sandtable demo

# Type-checked packages (strict per [tool.mypy] in pyproject.toml): add rules, tracker, appmodel here as each passes.
MYPY_PACKAGES := calibration rules tracker appmodel

# lint first: a lint or type error fails the build before the tests run
test: $(STAMP) browser lint
	$(BIN)/python -m pytest -n 2

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy $(MYPY_PACKAGES)

bench: $(STAMP)
	for script in bench/*.py; do echo "== $$script"; $(BIN)/python $$script || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info
