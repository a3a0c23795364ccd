# Set-up and the main jobs. `make test` and `make run` each create .venv and install what they need.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
STAMP := $(VENV)/.installed

.PHONY: test run demo bench lint clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	# setuptools >= 77 builds the SPDX `license` offline (tests/test_packaging.py builds a wheel).
	$(PIP) install -q --upgrade pip "setuptools>=77"
	# Exact torch pin first: the machine holds this CPU wheel; a looser pin could pull a CUDA build.
	$(PIP) install -q torch==2.13.0
	$(PIP) install -q -e ".[training,benchmarks,dev]"
	touch $(STAMP)

test: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m pytest

# The main job: a few minutes of PPO self-play on standard Hearts, then a duplicate tournament
# of the fresh agent, the shipped one, strategy and random (table printed, plots in runs/demo).
run: $(STAMP)
	$(PY) -m training.demo

# Play and render a few deals, then print a short throughput table.
demo: $(STAMP)
	$(PY) -m benchmarks.demo

bench: $(STAMP)
	$(PY) -m benchmarks.throughput

lint: $(STAMP)
	$(PY) -m ruff check .

clean:
	rm -rf $(VENV) build *.egg-info
