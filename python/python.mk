# The Python package (python/) and its tests, included by the top Makefile.
#   make python-venv   (part of `make deps`) the virtual environment the
#                      Python tests run in: JAX (CPU), PyTorch, NumPy and
#                      matplotlib from PyPI, made once in $(PY_VENV), outside
#                      the checkout so that every checkout and worktree
#                      shares it; reused while its stamp names the same
#                      packages (PyPI's torch wheel is the CUDA build, about
#                      5 GB with its libraries: installed once)
#   make wheel         dist/redist-<version>-py3-none-<platform>.whl: the
#                      package with libredist_planner.so and its version
#                      (runtime/include/redist/version.hpp), installable
#                      with pip without the checkout
# Its suite, test-python, is run by tests/suites.mk.
PY_VENV ?= $(HOME)/.cache/redist/venv
PY_PIP := jax[cpu] torch numpy matplotlib
PY_STAMP := $(PY_VENV)/.redist-packages

.PHONY: python-venv wheel

python-venv:
	$(call install_debs,python-venv,python3-venv)
	@if [ "$$(cat $(PY_STAMP) 2>/dev/null)" != "$(PY_PIP)" ]; then \
	  echo "make python-venv: installing $(PY_PIP) into $(PY_VENV) (once; several GB)"; \
	  /usr/bin/python3 -m venv $(PY_VENV) && $(PY_VENV)/bin/pip install -q $(PY_PIP) && \
	  echo "$(PY_PIP)" > $(PY_STAMP); \
	fi

deps: python-venv

wheel: runtime python-venv
	@rm -rf python/build && mkdir -p dist
	@$(PY_VENV)/bin/pip wheel -q --no-build-isolation --no-deps -w dist ./python
	@ls dist/redist-*.whl
