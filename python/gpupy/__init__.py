"""gpupy: NumPy-compatible n-dimensional arrays on NVIDIA GPUs (cuda), the CPU (cpu), and the
CUDA device emulated on the CPU (emu)."""

import math as _math
import sys as _sys

from gpupy import (  # noqa: F401 - _ndarray attaches the Python-level methods
    _core,
    _ndarray,
    cuda,  # noqa: F401
)
from gpupy._array_flags import *  # noqa: F401,F403
from gpupy._array_methods import *  # noqa: F401,F403
from gpupy._classify import *  # noqa: F401,F403
from gpupy._core import (  # noqa: F401
    CudaError,
    Device,
    free_all_blocks,
    memory_stats,
    ndarray,
    synchronize,  # noqa: F401
)
from gpupy._creation import *  # noqa: F401,F403
from gpupy._creation_extra import *  # noqa: F401,F403
from gpupy._dlpack import from_dlpack  # noqa: F401
from gpupy._dtypes import *  # noqa: F401,F403
from gpupy._einsum import *  # noqa: F401,F403
from gpupy._elementwise import *  # noqa: F401,F403
from gpupy._histograms import *  # noqa: F401,F403
from gpupy._index_helpers import *  # noqa: F401,F403
from gpupy._index_tricks import *  # noqa: F401,F403
from gpupy._indexing import *  # noqa: F401,F403
from gpupy._interop import API_VERSION as __array_api_version__  # noqa: F401
from gpupy._interop import array_namespace_info as __array_namespace_info__  # noqa: F401
from gpupy._io import *  # noqa: F401,F403
from gpupy._joining import *  # noqa: F401,F403
from gpupy._linalg import *  # noqa: F401,F403
from gpupy._manipulation import *  # noqa: F401,F403
from gpupy._nanfunctions import *  # noqa: F401,F403
from gpupy._pad import *  # noqa: F401,F403
from gpupy._partition import *  # noqa: F401,F403
from gpupy._placement import *  # noqa: F401,F403
from gpupy._poly1d import *  # noqa: F401,F403
from gpupy._polynomial import *  # noqa: F401,F403
from gpupy._rearranging import *  # noqa: F401,F403
from gpupy._reduction import *  # noqa: F401,F403
from gpupy._selection import *  # noqa: F401,F403
from gpupy._set_functions import *  # noqa: F401,F403
from gpupy._signal import *  # noqa: F401,F403
from gpupy._sorting import *  # noqa: F401,F403
from gpupy._statistics import *  # noqa: F401,F403
from gpupy._user_kernels import *  # noqa: F401,F403
from gpupy._utilities import *  # noqa: F401,F403
from gpupy._vectorize import *  # noqa: F401,F403
from gpupy._windows import *  # noqa: F401,F403

newaxis = None
pi = _math.pi
e = _math.e
inf = _math.inf
nan = _math.nan
euler_gamma = 0.5772156649015329  # NumPy's value (the double nearest Euler's constant)
little_endian = _sys.byteorder == "little"

# Array API extensions, NumPy's random, polynomial, testing and ctypeslib packages, its
# exception classes and its dtype classes.
from gpupy import (  # noqa: E402, F401
    ctypeslib,
    dtypes,
    exceptions,
    fft,
    lib,
    linalg,
    polynomial,
    random,
    testing,
)
from gpupy.lib import scimath as emath  # noqa: E402, F401 - numpy.emath is numpy.lib.scimath

__version__ = "0.1.0"
