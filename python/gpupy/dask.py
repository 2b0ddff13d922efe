"""Dask support: gpupy arrays as the chunks of dask arrays.

`import gpupy` does not import Dask; call ``gpupy.dask.register()`` once before building dask
arrays whose chunks are gpupy arrays (``da.from_array(g, chunks=..., asarray=False)``). Dask then
runs NumPy functions on the chunks, which gpupy answers through __array_function__ and
__array_ufunc__.
"""

from gpupy import _core


def register():
    """Registers gpupy.ndarray as a Dask chunk type and gives Dask's dispatch tables gpupy's
    functions, so that counts and concatenations stay on the chunks' device (idempotent)."""
    import dask.array as da
    from dask.array import dispatch

    import gpupy
    from gpupy import _interop

    nd = _core.ndarray
    if nd not in getattr(da.chunk_types, "_HANDLED_CHUNK_TYPES", ()):
        da.register_chunk_type(nd)
    dispatch.concatenate_lookup.register(nd, _interop.concatenate)
    dispatch.tensordot_lookup.register(nd, gpupy.tensordot)
    dispatch.numel_lookup.register(nd, _numel)
    dispatch.empty_lookup.register(nd, gpupy.empty)
    dispatch.to_numpy_dispatch.register(nd, lambda data, **kwargs: data.get())


def _numel(x, axis=None, keepdims=False, dtype=None, **_):
    """Element counts of a chunk for Dask's mean and var, on the chunk's device (Dask's default
    builds them as NumPy arrays, which gpupy will not mix with device arrays)."""
    import math

    import gpupy

    dtype = "float64" if dtype is None else dtype
    axes = range(x.ndim) if axis is None else axis if isinstance(axis, (tuple, list)) else [axis]
    axes = {a % x.ndim for a in axes} if x.ndim else set()
    count = math.prod(x.shape[a] for a in axes)
    if keepdims:
        shape = tuple(1 if i in axes else n for i, n in enumerate(x.shape))
    else:
        shape = tuple(n for i, n in enumerate(x.shape) if i not in axes)
    return gpupy.full(shape, count, dtype=dtype, device=x.device)
