# redist: verified array redistribution.  `make demo` and `make test` work
# on a fresh Debian machine as root: every target first installs what is
# missing through `make deps`.
SHELL := /bin/bash
.DEFAULT_GOAL := all
ROOT := $(CURDIR)

# Debian packages the build and the tests need.
DEBS := coq ocaml-nox ocaml-dune ocaml-findlib libcmdliner-ocaml-dev libyojson-ocaml-dev \
        libalcotest-ocaml-dev libqcheck-ocaml-dev libcrowbar-ocaml-dev afl++ \
        libopenmpi-dev openmpi-bin doctest-dev g++ cmake make pkg-config python3 python3-jsonschema

.PHONY: all deps proofs extract extract-check build test ci clean

# $(call install_debs,WHO,PACKAGES): install the packages that are missing,
# as root; quiet and about a second when nothing is.
define install_debs
	@missing=$$(for p in $(2); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed$$' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "make $(1): installing" $$missing; \
	  if [ "$$(id -u)" != 0 ]; then echo "make $(1): run as root to install:" $$missing >&2; exit 1; fi; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi
endef

deps:
	$(call install_debs,deps,$(DEBS))

# ---- proofs ---------------------------------------------------------------
proofs/CoqMakefile: proofs/_CoqProject
	cd proofs && coq_makefile -f _CoqProject -o CoqMakefile

proofs: deps proofs/CoqMakefile
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
build: deps
	dune build @install 2>&1

all: build runtime

# ---- tests ----------------------------------------------------------------
# tests/suites.mk is the one table of suites; each component's fragment
# defines the targets it names.  A missing fragment stops make.
include tests/suites.mk
include codegen/codegen.mk
include runtime/runtime.mk
include tests/e2e/e2e.mk
include tests/capi/capi.mk
include tests/diff/diff.mk
include bench/bench.mk
include python/python.mk

test: deps
	@tests/harness.sh $(TEST_SUITES)

ci: test

clean:
	rm -rf _build
	-$(MAKE) -C proofs -f CoqMakefile clean 2>/dev/null
