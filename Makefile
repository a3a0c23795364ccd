# Set-up and the main jobs. `make test` and `make run` each create .venv and install what they need.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
STAMP := $(VENV)/.installed
# torch is installed first, with an exact pin, so that the package's `torch>=2.3` installs nothing
# more. TORCH_INDEX chooses where that one wheel comes from: empty (the default) is pip's own
# configured indexes, which on PyPI for Linux means the CUDA build (several GB); for the CPU
# wheel, `make test TORCH_INDEX=https://download.pytorch.org/whl/cpu`. TORCH_SPEC: another build.
TORCH_SPEC ?= torch==2.13.0
TORCH_INDEX ?=
TORCH_INSTALL = install -q "$(TORCH_SPEC)" $(if $(TORCH_INDEX),--index-url $(TORCH_INDEX))

.PHONY: test run demo bench lint clean integration docs

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	# setuptools >= 77 builds the SPDX `license` offline (tests/test_packaging.py builds a wheel).
	$(PIP) install -q --upgrade pip "setuptools>=77"
	$(PIP) $(TORCH_INSTALL)
	$(PIP) install -q -e ".[training,benchmarks,dev]"
	touch $(STAMP)

# The tests in TEST_WORKERS processes (pytest-xdist; 2: this machine's cores; 0: one process).
TEST_WORKERS ?= 2

test: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m pytest -n $(TEST_WORKERS) --durations=15

# The main job: a few minutes of PPO self-play on standard Hearts, then a duplicate tournament
# of the fresh agent, the shipped one, strategy and random: the table printed, every file it wrote
# in runs/demo named, and the commands that evaluate the fresh agent and continue its training.
# An earlier runs/demo is kept (moved to runs/demo-1, -2, …). Without a GPU, the CPU torch wheel
# is much smaller: `make run TORCH_INDEX=https://download.pytorch.org/whl/cpu`.
run: $(STAMP)
	$(PY) -m training.demo

# Play and render a few deals, then print a short throughput table.
demo: $(STAMP)
	$(PY) -m benchmarks.demo

bench: $(STAMP)
	$(PY) -m benchmarks.throughput

lint: $(STAMP)
	$(PY) -m ruff check .

# The RL-library integrations (examples/): each in its own virtual environment, so the main
# .venv stays lean. `make integration` runs them all (CI does, after `make test`);
# `make integration-torchrl` one. Each venv is made once (a stamp file) and reused.
# notorch: the package alone (no torch, matplotlib or tqdm) runs rules, play and tournaments.
# replay: the deal viewer's page rendered by headless Chromium (see replay-browser below).
INTEGRATIONS := supersuit torchrl tianshou ray sb3 notorch replay
# The extras each venv installs (ray: Ray tournaments/training and RLlib share one venv).
EXTRAS_notorch := dev
EXTRAS_replay := dev
EXTRAS_supersuit := supersuit,dev
EXTRAS_torchrl := torchrl,training,dev
EXTRAS_tianshou := tianshou,training,dev
EXTRAS_ray := rllib,training,dev
EXTRAS_sb3 := sb3,dev
# Which need torch first (TORCH_SPEC from TORCH_INDEX, as the main venv).
TORCH_torchrl := 1
TORCH_tianshou := 1
TORCH_ray := 1
TORCH_sb3 := 1
# The test files each runs (default: tests/integration/test_NAME.py).
TESTS_ray := test_ray.py test_rllib.py
TESTS_notorch := test_no_torch.py
TESTS_replay := test_replay_browser.py

.PRECIOUS: .venv-%/.installed

integration: $(INTEGRATIONS:%=integration-%)

.venv-%/.installed: pyproject.toml
	test -x .venv-$*/bin/python || $(PYTHON) -m venv .venv-$*
	.venv-$*/bin/pip install -q --upgrade pip "setuptools>=77"
	$(if $(TORCH_$*),.venv-$*/bin/pip $(TORCH_INSTALL))
	.venv-$*/bin/pip install -q -e ".[$(EXTRAS_$*)]"
	touch $@

# The replay check needs a browser: Chromium from the distribution's packages, installed when
# missing and apt-get can (as root); otherwise the check skips, saying why.
BROWSERS := chromium chromium-browser google-chrome
.PHONY: replay-browser
integration-replay: replay-browser
replay-browser:
	@for b in $(BROWSERS); do command -v $$b >/dev/null && exit 0; done; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		{ apt-get install -y -q chromium >/dev/null 2>&1 || { apt-get update -q >/dev/null && \
		  apt-get install -y -q chromium >/dev/null; }; } || echo "note: apt-get could not install chromium"; \
	else echo "note: no browser, and no apt-get as root to install chromium: the replay check skips"; fi

# HEARTS_ENV_INTEGRATION makes a missing library a failure instead of a skip.
integration-%: .venv-%/.installed
	HEARTS_ENV_INTEGRATION=$* .venv-$*/bin/python -m pytest -p no:cacheprovider $(addprefix tests/integration/,$(or $(TESTS_$*),test_$*.py))

# The documentation site (docs/, Sphinx with furo and MyST Markdown) in its own venv: a full build
# with warnings as errors, then a check of every internal link and anchor of the built pages.
EXTRAS_docs := docs,dev

docs: .venv-docs/.installed
	.venv-docs/bin/python -m sphinx -W --keep-going -E -b html docs docs/_build/html
	HEARTS_ENV_INTEGRATION=docs .venv-docs/bin/python -m pytest -p no:cacheprovider tests/integration/test_docs_site.py

clean:
	rm -rf $(VENV) $(INTEGRATIONS:%=.venv-%) .venv-docs docs/_build build *.egg-info
