"""Builds the package from a redist checkout: `make runtime` in the
checkout builds libredist_planner.so (the C ABI's planning half: the
planner's OCaml object, no MPI library needed), which the package carries, and the version is REDIST_VERSION of
runtime/include/redist/version.hpp, written into the package
(_built_version.py).  The wheel (`make wheel`) is therefore a platform
wheel (py3-none-<platform>), installable without the checkout.
REDIST_NO_BUNDLE=1 skips the library; the package then uses $REDIST_LIB or
an installed prefix's library (redist/_lib.py)."""
import importlib.util
import os
import pathlib
import shutil
import subprocess

from setuptools import setup
from setuptools.command.bdist_wheel import bdist_wheel
from setuptools.command.build_py import build_py

HERE = pathlib.Path(__file__).resolve().parent
CHECKOUT = HERE.parent
_spec = importlib.util.spec_from_file_location("redist_version", HERE / "redist" / "_version.py")
_version = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_version)
VERSION = _version.from_header(CHECKOUT / "runtime" / "include" / "redist" / "version.hpp")


class BuildPyWithPlanner(build_py):
    def run(self):
        super().run()
        package = pathlib.Path(self.build_lib) / "redist"
        (package / "_built_version.py").write_text('VERSION = "%s"  # from runtime/include/redist/version.hpp\n'
                                                   % VERSION)
        if os.environ.get("REDIST_NO_BUNDLE") or not (CHECKOUT / "runtime" / "runtime.mk").exists():
            return
        subprocess.run(["make", "-C", str(CHECKOUT), "runtime"], check=True)
        shutil.copy(CHECKOUT / "_build" / "prefix" / "lib" / "libredist_planner.so", package / "libredist_planner.so")


class PlatformWheel(bdist_wheel):
    """A wheel for this platform (it carries a shared library), for any
    Python 3 (the library is reached through ctypes, not the C API)."""

    def finalize_options(self):
        super().finalize_options()
        self.root_is_pure = False

    def get_tag(self):
        return ("py3", "none", super().get_tag()[2])


setup(version=VERSION, cmdclass={"build_py": BuildPyWithPlanner, "bdist_wheel": PlatformWheel})
