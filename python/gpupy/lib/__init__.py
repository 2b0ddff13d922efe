"""gpupy.lib: the parts of numpy.lib that gpupy provides (``gpupy.lib.scimath``,
``gpupy.lib.stride_tricks``)."""

from gpupy.lib import scimath, stride_tricks  # noqa: F401
