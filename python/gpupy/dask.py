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
    from dask.array import backends, dispatch

    import gpupy
    from gpupy import _interop

    nd = _core.ndarray
    if nd not in getattr(da.chunk_types, "_HANDLED_CHUNK_TYPES", ()):
        da.register_chunk_type(nd)
    dispatch.concatenate_lookup.register(nd, _interop.concatenate)
    dispatch.tensordot_lookup.register(nd, gpupy.tensordot)
    dispatch.numel_lookup.register(nd, backends._numel_arraylike)
    dispatch.empty_lookup.register(nd, gpupy.empty)
    dispatch.to_numpy_dispatch.register(nd, lambda data, **kwargs: data.get())
