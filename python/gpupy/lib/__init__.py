"""gpupy.lib: the parts of numpy.lib that gpupy provides (``gpupy.lib.scimath``,
``gpupy.lib.stride_tricks``, ``gpupy.lib.array_utils``, ``gpupy.lib.mixins`` and NumPy's
``NumpyVersion``, which compares version strings such as ``numpy.__version__``)."""

from numpy.lib import NumpyVersion  # noqa: F401

from gpupy.lib import array_utils, mixins, scimath, stride_tricks  # noqa: F401
