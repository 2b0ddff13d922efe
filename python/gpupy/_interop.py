"""NumPy dispatch (NEP 13 __array_ufunc__, NEP 18 __array_function__), the Array API namespace
(__array_namespace__, __array_namespace_info__) and pickling of ndarray.

Dispatch maps a NumPy function to the gpupy function of the same name and returns NotImplemented
when gpupy has none, so NumPy raises TypeError: a gpupy array is never silently computed on the
host through NumPy.
"""

import numpy

from gpupy import _core

ndarray = _core.ndarray

# ---- NEP 13 --------------------------------------------------------------------------------------

# ufunc.reduce -> gpupy reduction; the second item says whether the reduction takes dtype=.
_REDUCTIONS = {
    "add": ("sum", True),
    "multiply": ("prod", True),
    "maximum": ("max", False),
    "minimum": ("min", False),
    "logical_and": ("all", False),
    "logical_or": ("any", False),
}
_SCALARS = (bool, int, float, complex, numpy.generic)


def _handled(value):
    return isinstance(value, (ndarray, numpy.ndarray) + _SCALARS)


def _single_out(kwargs):
    """The out= argument as one gpupy array or None; False when gpupy cannot honour it."""
    out = kwargs.get("out")
    if isinstance(out, tuple):
        if len(out) != 1:
            return False
        out = out[0]
    if out is not None and not isinstance(out, ndarray):
        return False
    return out


# Two-output ufuncs whose gpupy function takes out=(a, b), also when a or b overlaps an input.
_PAIR_OUT = frozenset(("frexp",))


def _pair_out(kwargs):
    """The out= argument of a two-output ufunc as a pair, or False."""
    out = kwargs.get("out", (None, None))
    if not isinstance(out, tuple) or len(out) != 2:
        return False
    if not all(o is None or isinstance(o, ndarray) for o in out):
        return False
    return None if all(o is None for o in out) else out


def _ufunc_call(fn, inputs, kwargs, nout=1):
    if set(kwargs) - {"out", "dtype", "where"}:
        return NotImplemented
    if nout == 1:
        out = _single_out(kwargs)
    else:
        out = _pair_out(kwargs) if fn.__name__ in _PAIR_OUT or "out" not in kwargs else False
    dtype = kwargs.get("dtype")
    # where= goes to gpupy's ufuncs of one output (their where keyword)
    where = kwargs.get("where", True)
    if where is not True and nout != 1:
        return NotImplemented
    masked = {} if where is True else {"where": where}
    if out is False or (dtype is not None and (out is not None or nout != 1)):
        return NotImplemented
    if dtype is not None:
        # NumPy's dtype= picks the loop: the operands are cast to it, and so is the result.
        inputs = [x.astype(dtype, copy=False) if isinstance(x, ndarray) else x for x in inputs]
        result = fn(*inputs, **masked)
        return result if result.dtype == dtype else result.astype(dtype)
    return fn(*inputs, **masked) if out is None else fn(*inputs, out=out, **masked)


def _ufunc_reduce(ufunc, inputs, kwargs):
    import gpupy

    if ufunc.__name__ not in _REDUCTIONS or len(inputs) != 1:
        return NotImplemented
    name, takes_dtype = _REDUCTIONS[ufunc.__name__]
    if set(kwargs) - {"axis", "dtype", "out", "keepdims"}:
        return NotImplemented
    out = _single_out(kwargs)
    dtype = kwargs.get("dtype")
    if out is False or (dtype is not None and not takes_dtype):
        return NotImplemented
    args = {"axis": kwargs.get("axis", 0), "keepdims": bool(kwargs.get("keepdims", False))}
    if dtype is not None:
        args["dtype"] = dtype
    if out is not None:
        args["out"] = out
    return getattr(gpupy, name)(inputs[0], **args)


def array_ufunc(self, ufunc, method, *inputs, **kwargs):
    """NEP 13: NumPy ufuncs on gpupy arrays run gpupy's function of the same name."""
    import gpupy

    operands = inputs[:1] + inputs[2:] if method == "at" else inputs  # at's 2nd is the index
    if not all(_handled(x) for x in operands):
        return NotImplemented
    if method == "__call__":
        fn = getattr(gpupy, ufunc.__name__, None)
        if fn is None or not callable(fn) or isinstance(fn, type):
            return NotImplemented
        return _ufunc_call(fn, inputs, kwargs, ufunc.nout)
    if method == "reduce" and ufunc.__name__ in _REDUCTIONS:
        return _ufunc_reduce(ufunc, inputs, kwargs)
    # The other methods (at, outer, accumulate, reduceat, other reductions): gpupy's ufunc object.
    fn = getattr(getattr(gpupy, ufunc.__name__, None), method, None)
    return NotImplemented if fn is None else fn(*inputs, **kwargs)


# ---- NEP 18 --------------------------------------------------------------------------------------


def concatenate(arrays, axis=0, out=None, dtype=None):
    import gpupy

    arrays = [gpupy.asarray(a) for a in arrays]
    if not arrays:
        raise ValueError("need at least one array to concatenate")
    if axis is None:
        arrays, axis = [gpupy.reshape(a, (-1,)) for a in arrays], 0
    first = arrays[0]
    if first.ndim == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    axis = axis + first.ndim if axis < 0 else axis
    if not 0 <= axis < first.ndim:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {first.ndim}")
    shape = list(first.shape)
    shape[axis] = sum(a.shape[axis] for a in arrays)
    dt = gpupy.result_type(*arrays) if dtype is None else dtype
    result = gpupy.empty(tuple(shape), dtype=dt, device=first.device) if out is None else out
    start = 0
    for a in arrays:
        key = (slice(None),) * axis + (slice(start, start + a.shape[axis]),)
        result._setitem(key, a)
        start += a.shape[axis]
    return result


def _stack(arrays, axis=0, out=None, dtype=None):
    import gpupy

    arrays = [gpupy.asarray(a) for a in arrays]
    if not arrays:
        raise ValueError("need at least one array to stack")
    ndim = arrays[0].ndim + 1
    axis = axis + ndim if axis < 0 else axis
    return concatenate([gpupy.expand_dims(a, axis) for a in arrays], axis, out, dtype)


# NumPy functions gpupy does not export, answered here because they never leave the device.
_FALLBACKS = {
    "concatenate": concatenate,
    "stack": _stack,
}


def _gpupy_function(func):
    import gpupy

    module = getattr(func, "__module__", "") or ""
    if module != "numpy" and not module.startswith("numpy."):
        return None
    namespace = gpupy
    for part in module.split(".")[1:]:
        namespace = getattr(namespace, part, None)
        if namespace is None:
            return None
    name = func.__name__
    fn = getattr(namespace, name, None)
    if namespace is gpupy and fn is None:
        fn = _FALLBACKS.get(name)
    if fn is None or not callable(fn) or isinstance(fn, type):
        return None
    return fn


# Functions NumPy dispatches only through NEP 35's like=: `self` is the like= array.
_CREATORS = frozenset(
    ("array", "asarray", "empty", "zeros", "ones", "full", "arange", "eye", "identity")
)

# Readers that dispatch only through like=, whose device they read onto.
_READERS = frozenset(("loadtxt", "genfromtxt", "fromfile"))


def _create_like(self, fn, args, kwargs):
    kwargs = dict(kwargs)
    ndmin = kwargs.pop("ndmin", 0)
    kwargs.pop("subok", None)  # gpupy has no ndarray subclasses
    kwargs.setdefault("device", self.device)
    result = fn(*args, **kwargs)
    if result.ndim < ndmin:
        result = result.reshape((1,) * (ndmin - result.ndim) + result.shape)
    return result


def array_function(self, func, types, args, kwargs):
    """NEP 18: numpy.f(gpupy_array, ...) runs gpupy.f; NotImplemented when gpupy has no f."""
    if not all(issubclass(t, (ndarray, numpy.ndarray)) for t in types):
        return NotImplemented
    fn = _gpupy_function(func)
    if fn is not None and func.__module__ == "numpy" and func.__name__ in _CREATORS:
        return _create_like(self, fn, args, kwargs)
    if fn is not None and func.__module__ == "numpy" and func.__name__ in _READERS:
        return fn(*args, **kwargs, device=self.device)
    if fn is None:
        return NotImplemented
    return fn(*args, **kwargs)


# ---- Array API -----------------------------------------------------------------------------------

API_VERSION = "2024.12"
_SUPPORTED_API_VERSIONS = ("2023.12", "2024.12")


def array_namespace(self, /, *, api_version=None):
    """The Array API namespace of gpupy arrays: the gpupy module."""
    import gpupy

    if api_version is not None and api_version not in _SUPPORTED_API_VERSIONS:
        raise ValueError(
            f"[__array_namespace__] unsupported Array API version {api_version!r}; gpupy "
            f"implements {', '.join(_SUPPORTED_API_VERSIONS)}"
        )
    return gpupy


_DTYPE_NAMES = (
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float32",
    "float64",
    "complex64",
    "complex128",
)


def _device_works(name):
    try:
        _core.zeros((1,), None, name)
    except Exception:  # noqa: BLE001 - any failure means "not usable here"
        return False
    return True


class _Info:
    """What __array_namespace_info__() returns (Array API 2024.12 inspection utilities)."""

    def capabilities(self):
        return {"boolean indexing": False, "data-dependent shapes": False, "max dimensions": 64}

    def default_device(self):
        return _core.default_device()

    def devices(self):
        names = ["cpu"] + (["emu"] if _device_works("emu") else [])
        if _core.cuda_is_available()[0]:
            names += [f"cuda:{i}" for i in range(_core.cuda_device_count())]
        return [_core.Device(n) for n in names]

    def default_dtypes(self, *, device=None):
        return {
            "real floating": numpy.dtype("float64"),
            "complex floating": numpy.dtype("complex128"),
            "integral": numpy.dtype("int64"),
            "indexing": numpy.dtype("int64"),
        }

    def dtypes(self, *, device=None, kind=None):
        dts = {n: numpy.dtype(n) for n in _DTYPE_NAMES}
        if kind is None:
            return dts
        return {n: dt for n, dt in dts.items() if numpy.isdtype(dt, kind)}


def array_namespace_info():
    """See the Array API: capabilities, devices and dtypes of gpupy."""
    return _Info()


# ---- Pickle --------------------------------------------------------------------------------------


def _rebuild(host, device):
    """Unpickles an array onto the device it was saved from; never silently somewhere else."""
    import gpupy

    if device != "cpu" and not _device_works(device):
        raise RuntimeError(
            f"[pickle] the array was saved from device '{device}', which is not available "
            "here; pickle a NumPy copy (a.get()) to move data between machines"
        )
    return gpupy.asarray(host, device=device, copy=True)


def reduce(self):
    return _rebuild, (self.get(), str(self.device))


def install():
    ndarray.__array_ufunc__ = array_ufunc
    ndarray.__array_function__ = array_function
    ndarray.__array_namespace__ = array_namespace
    ndarray.__reduce__ = reduce
