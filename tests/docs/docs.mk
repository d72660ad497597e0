# Documentation that cannot drift (included by the top Makefile): every
# `$ redist ...` example of README.md and codegen/README.md is run and what
# it prints compared with what the file shows (tests/docs/doc_examples.py
# says how `...` elides); one test per example.
.PHONY: test-docs
DOC_EXAMPLE_FILES := README.md codegen/README.md

test-docs: build runtime
	@python3 tests/docs/doc_examples.py _build/install/default/bin $(DOC_EXAMPLE_FILES)
