# redist: verified array redistribution.  On a fresh Debian 12 machine, as
# root, every target first installs the Debian packages it needs and lacks
# (about a second when nothing is missing): `make demo` only what the demo
# uses, `make test` what every suite uses.
SHELL := /bin/bash
.DEFAULT_GOAL := all
ROOT := $(CURDIR)

# Debian packages by need.  The sizes are downloads onto a minimal Debian 12
# (its required and important packages; apt-get --print-uris, 2026-12), each
# beyond the groups before it; docs/setup.md has the table and how to measure.
# Build the command and the runtime, and run them (make demo, build,
# runtime, install): 128 packages, 239 MB.
DEBS_BUILD := ocaml-nox ocaml-dune ocaml-findlib libcmdliner-ocaml-dev libyojson-ocaml-dev \
              libopenmpi-dev openmpi-bin g++ cmake make
# The test suites' libraries and tools: 34 packages, 13 MB more.
DEBS_TEST := libalcotest-ocaml-dev libqcheck-ocaml-dev doctest-dev pkg-config python3 python3-jsonschema
# The proof assistant (make proofs; `make test` checks the proofs and that
# extracted/ is what they extract): 4 packages, 137 MB more.
DEBS_PROOFS := coq
# make fuzz: crowbar and afl++, 33 packages, 60 MB beyond the build's.
DEBS_FUZZ := libcrowbar-ocaml-dev afl++

.PHONY: all deps deps-build deps-test deps-proofs deps-fuzz deps-python deps-bench proofs extract extract-check build test ci clean

# $(call install_debs,WHO,PACKAGES): install the packages that are missing,
# as root, saying first how much apt will download; quiet and about a
# second when nothing is missing.
define install_debs
	@missing=$$(for p in $(2); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed$$' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" != 0 ]; then echo "make $(1): run as root to install:" $$missing >&2; exit 1; fi; \
	  apt-get update -qq && \
	  download=$$(apt-get install -qq --print-uris --no-install-recommends $$missing | \
	    awk '/^\x27/ {n++; b+=$$3} END {printf "%d packages, %d MB", n, b/1e6}') && \
	  echo "make $(1): installing" $$missing "($$download to download)" && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi
endef

deps-build:
	$(call install_debs,deps-build,$(DEBS_BUILD))
deps-test: deps-build
	$(call install_debs,deps-test,$(DEBS_TEST))
deps-proofs:
	$(call install_debs,deps-proofs,$(DEBS_PROOFS))
deps-fuzz: deps-build
	$(call install_debs,deps-fuzz,$(DEBS_FUZZ))
# The Python tests' virtual environment (python/python.mk) and the
# benchmark's packages (bench/bench.mk).
deps-python: python-venv
deps-bench: bench-deps
# What `make test` needs: every group but fuzzing and the benchmark's
# (python/python.mk adds the Python environment).
deps: deps-build deps-test deps-proofs

# ---- proofs ---------------------------------------------------------------
proofs/CoqMakefile: proofs/_CoqProject
	cd proofs && coq_makefile -f _CoqProject -o CoqMakefile

proofs: deps-proofs proofs/CoqMakefile
	$(MAKE) -C proofs -f CoqMakefile

# Extract into a scratch directory; `extract` installs the result into
# extracted/, `extract-check` fails if it differs from what is committed.
EXTRACT_TMP := $(ROOT)/_build/extraction
define run_extraction
	rm -rf $(EXTRACT_TMP) && mkdir -p $(EXTRACT_TMP)
	cd $(EXTRACT_TMP) && coqc -R $(ROOT)/proofs Redist $(ROOT)/proofs/Extraction.v
endef

extract: proofs
	$(run_extraction)
	cp $(EXTRACT_TMP)/redist_core.ml $(EXTRACT_TMP)/redist_core.mli extracted/

extract-check: proofs
	$(run_extraction)
	diff -q $(EXTRACT_TMP)/redist_core.ml extracted/redist_core.ml
	diff -q $(EXTRACT_TMP)/redist_core.mli extracted/redist_core.mli

# ---- OCaml: extracted core, the redist command, its tests -------------------
build: deps-build
	dune build @install 2>&1

all: build runtime

# ---- tests ----------------------------------------------------------------
# tests/suites.mk is the one table of suites and their run rules; each
# component's fragment defines what it builds.  A missing fragment stops make.
include tests/suites.mk
include codegen/codegen.mk
include runtime/runtime.mk
include tests/e2e/e2e.mk
include tests/capi/capi.mk
include bench/bench.mk
include python/python.mk

# A suite run on its own installs what the suites need first.
$(TEST_SUITES): deps-test

test: deps
	@tests/harness.sh $(TEST_SUITES)

ci: test

clean:
	rm -rf _build
	-$(MAKE) -C proofs -f CoqMakefile clean 2>/dev/null
