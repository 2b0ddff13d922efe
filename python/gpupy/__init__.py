"""gpupy: NumPy-compatible n-dimensional arrays on NVIDIA GPUs (cuda), the CPU (cpu), and the
CUDA device emulated on the CPU (emu)."""

from gpupy import _core
from gpupy._core import CudaError, Device, ndarray  # noqa: F401
from gpupy._creation import *  # noqa: F401,F403
from gpupy._elementwise import *  # noqa: F401,F403
from gpupy._reduction import *  # noqa: F401,F403

__version__ = "0.1.0"
