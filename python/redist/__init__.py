"""redist from Python: the formally verified planner of array
redistributions (Coq, extracted), with adapters that run its plans as JAX
and PyTorch collectives (redist.jax, redist.torch, imported on demand), and
redist.mpi, which runs them with redist's C runtime over MPI."""
from ._lib import RedistError
from ._plan import Piece, Plan, RegionLists, Step, plan, plan_in_place, plan_within
from ._version import version as _version

__version__ = _version()

__all__ = ["RedistError", "Piece", "Plan", "RegionLists", "Step", "plan", "plan_in_place", "plan_within", "__version__"]
