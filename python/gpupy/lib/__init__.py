"""gpupy.lib: the parts of numpy.lib that gpupy provides (``gpupy.lib.stride_tricks``)."""

from gpupy.lib import stride_tricks  # noqa: F401
