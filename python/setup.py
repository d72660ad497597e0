"""Bundles libredist_plan.so into the package when it is installed from a
redist checkout: `make runtime` in the checkout builds it (the planner's
OCaml object and the C++ runtime), and the wheel carries the copy.
REDIST_NO_BUNDLE=1 skips it; the package then uses $REDIST_LIB or an
installed prefix's library (redist/_lib.py)."""
import os
import pathlib
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py

CHECKOUT = pathlib.Path(__file__).resolve().parent.parent


class BuildPyWithPlanner(build_py):
    def run(self):
        super().run()
        if os.environ.get("REDIST_NO_BUNDLE") or not (CHECKOUT / "runtime" / "runtime.mk").exists():
            return
        subprocess.run(["make", "-C", str(CHECKOUT), "runtime"], check=True)
        shutil.copy(CHECKOUT / "_build" / "prefix" / "lib" / "libredist_plan.so",
                    pathlib.Path(self.build_lib) / "redist" / "libredist_plan.so")


setup(cmdclass={"build_py": BuildPyWithPlanner})
