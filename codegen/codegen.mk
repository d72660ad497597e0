# The redist command line: install and fuzz targets (included by the top
# Makefile; its test suites, test-cli-*, are run by tests/suites.mk).  All
# builds are serial (-j 1): the build machine has two cores shared with
# other jobs.

.PHONY: install fuzz

PREFIX ?= /usr/local
# Subcommands with a man page of their own (redist-SUBCOMMAND.1) beside redist.1.
REDIST_SUBCOMMANDS := plan check show gen run calibrate

# The command, its man pages (cmdliner writes them: --help=groff), and the
# runtime's headers, libraries, CMake package and pkg-config files, all under
# one prefix, from which an installed `redist run` finds the runtime.
install: build runtime
	install -D -m 755 _build/install/default/bin/redist $(DESTDIR)$(PREFIX)/bin/redist
	@mkdir -p $(DESTDIR)$(PREFIX)/share/man/man1
	_build/install/default/bin/redist --help=groff >$(DESTDIR)$(PREFIX)/share/man/man1/redist.1
	for c in $(REDIST_SUBCOMMANDS); do \
	  _build/install/default/bin/redist $$c --help=groff >$(DESTDIR)$(PREFIX)/share/man/man1/redist-$$c.1 || exit 1; done
	DESTDIR=$(DESTDIR) cmake --install $(RUNTIME_BUILD) --prefix $(PREFIX)

# Crowbar fuzzing of the parser and front end with afl++ (not part of
# `make test`): FUZZ_SECONDS of afl-fuzz on an instrumented build; crashes
# land in _build/fuzz-out/default/crashes.  AFL_SKIP_BIN_CHECK makes afl++
# use its plain fork server: the OCaml afl-persistent library predates
# afl++'s persistent-mode protocol, and with it afl++ sees no coverage.
FUZZ_SECONDS ?= 60
fuzz: deps-fuzz
	dune build -j 1 --profile fuzz --build-dir $(ROOT)/_build/fuzz ./tests/cli/fuzz/fuzz_front.exe
	rm -rf _build/fuzz-out
	AFL_SKIP_BIN_CHECK=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 \
	  afl-fuzz -V $(FUZZ_SECONDS) -i tests/cli/fuzz/seeds -o _build/fuzz-out -- \
	  _build/fuzz/default/tests/cli/fuzz/fuzz_front.exe @@
	@crashes=$$(ls _build/fuzz-out/default/crashes 2>/dev/null | grep -vc README || true); \
	echo "fuzz: $$crashes crashing inputs"; [ "$$crashes" -eq 0 ]
