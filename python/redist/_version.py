"""redist's version, written in one place: REDIST_VERSION in
runtime/include/redist/version.hpp.  setup.py reads it there when it builds
the package and writes it into the package (_built_version.py); a package
run from a checkout (python/ on the path) reads the header itself."""
import pathlib
import re

HEADER = pathlib.Path(__file__).resolve().parents[2] / "runtime" / "include" / "redist" / "version.hpp"


def from_header(header=HEADER):
    """REDIST_VERSION of the header, "0.3.0"."""
    found = re.search(r'^#define REDIST_VERSION "([^"]+)"', header.read_text(), re.MULTILINE)
    if not found:
        raise RuntimeError("%s: no #define REDIST_VERSION \"...\" line" % header)
    return found.group(1)


def version():
    try:
        from ._built_version import VERSION
    except ImportError:
        return from_header()
    return VERSION
