# Measuring Compositionality: build the book, run the tests.
# Every target that needs Python first creates .venv and installs the pinned dependencies.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
# Where trained models and expensive intermediate results are cached (see tutorlib.cache).
export TUTORLIB_CACHE_DIR ?= $(CURDIR)/.cache
# Profile the book is executed at: ci, tutorial or full (see tutorlib.profiles).
PROFILE ?= tutorial
# Chapters executed side by side by `make execute` (each with cores / JOBS threads).
JOBS ?= 2
# Test processes side by side in `make test` and `make unit` (pytest-xdist; whole files per process).
TEST_JOBS ?= 2
# Project root holding _toc.yml and notebooks/ (the executor's test points it elsewhere).
ROOT ?= .
# Where torch comes from: PyTorch's CPU wheel index, as PyTorch documents for a machine without a
# GPU (PyPI's Linux torch is the CUDA build, 2.7 GB with its NVIDIA libraries; the CPU wheel is
# 0.19 GB). For a GPU: make TORCH_INDEX=https://download.pytorch.org/whl/cu128 (or the CUDA
# version of your driver). Where the index cannot be reached, torch is installed with the rest
# (this project's offline machines find the CPU wheel locally).
export TORCH_INDEX ?= https://download.pytorch.org/whl/cpu
TORCH_PIN := $(shell grep '^torch==' constraints.txt)

.PHONY: help venv sync execute chapter html book lab exercises test unit nbval browser check-sync clean

help:
	@echo "make book   execute every chapter at PROFILE=$(PROFILE) and build _build/html"
	@echo "make test   unit tests, every chapter at the ci profile, nbval, book build, browser check"
	@echo "make unit   the unit tests without the slow (integration) ones, while editing"
	@echo "make sync   synchronise notebooks/*.py with notebooks/*.ipynb (jupytext)"
	@echo "make chapter NB=05 PROFILE=ci   execute one chapter (into book/<part>/)"
	@echo "make lab    open the chapters (notebooks/) in JupyterLab (LAB_DIR=exercises for those)"
	@echo "make exercises   write exercises/NN_topic.ipynb: each chapter without its solutions"
	@echo "make clean  remove the build, the executed notebooks and the cache"

$(STAMP): pyproject.toml constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -qq --retries 0 --timeout 20 --extra-index-url $(TORCH_INDEX) \
		'$(TORCH_PIN)' 2>/dev/null || echo "($(TORCH_INDEX) not reachable: torch comes with the rest)"
	$(PY) -m pip install -qq -c constraints.txt -e '.[book,dev,cluster,fast,hf]'
	touch $(STAMP)

venv: $(STAMP)

sync: $(STAMP)
	$(VENV)/bin/jupytext --sync notebooks/*.py

execute: $(STAMP)
	$(PY) tools/execute.py --root $(ROOT) --profile $(PROFILE) --jobs $(JOBS)

# One chapter at a profile, e.g. `make chapter NB=05 PROFILE=ci`: executed into book/<part>/.
chapter: $(STAMP)
	@test -n "$(NB)" || (echo "usage: make chapter NB=05 [PROFILE=ci]"; exit 2)
	$(PY) tools/execute.py --root $(ROOT) --profile $(PROFILE) --only $(NB) --force

html: $(STAMP)
	$(VENV)/bin/jupyter-book build . --warningiserror --nitpick --keep-going

book: sync execute html
	@echo "The book is at file://$(CURDIR)/_build/html/index.html"

# JupyterLab on the chapter sources (`make lab LAB_DIR=exercises` on the exercise notebooks);
# its kernels inherit TUTORLIB_CACHE_DIR, so they share the book's cache.
LAB_DIR ?= notebooks
lab: $(STAMP)
	$(VENV)/bin/jupyter lab --ServerApp.root_dir=$(LAB_DIR)

# Exercise notebooks for students: each chapter with its solutions removed and an answer cell
# after each exercise, written to exercises/ (not committed).
exercises: $(STAMP)
	$(PY) tools/exercises.py --root $(ROOT) --out exercises

# make test: the linter (ruff), unit tests and repository checks (including the notebook pairs being in sync),
# every chapter executed at the ci profile, nbval re-execution of the executed copies, the book
# built with warnings as errors, and the built pages opened in headless Chromium.
test: $(STAMP)
	$(VENV)/bin/ruff check .
	$(PY) -m pytest tests --ignore=tests/browser --ignore=tests/executed --doctest-modules tutorlib \
		-n $(TEST_JOBS) --dist loadfile --durations=15
	TQDM_DISABLE=1 $(MAKE) --no-print-directory execute PROFILE=ci
	$(PY) -m pytest tests/executed
	TQDM_DISABLE=1 $(PY) -m pytest --nbval book --nbval-current-env \
		--nbval-sanitize-with tests/nbval_sanitize.cfg --nbval-cell-timeout 600 -p no:cacheprovider \
		-n $(TEST_JOBS) --dist loadfile
	$(MAKE) --no-print-directory html
	$(PY) -m pytest tests/browser

# make unit: the quick loop while editing (the tests marked slow are left out; make test runs all)
unit: $(STAMP)
	$(PY) -m pytest tests --ignore=tests/browser --ignore=tests/executed -m "not slow" -q -n $(TEST_JOBS) --dist loadfile

clean:
	rm -rf _build .cache
	find book -name '*.ipynb' -delete
