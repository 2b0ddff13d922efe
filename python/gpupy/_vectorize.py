"""gpupy.vectorize and gpupy.frompyfunc: NumPy's Python-function wrappers, with array semantics.

NumPy calls the Python function once per element, on the host. gpupy calls it once, on whole
broadcast gpupy arrays, so a function written with operators and array functions (gpupy's or
NumPy's ufuncs, which dispatch to gpupy) runs on the arrays' device in one pass. A function that
branches on element values cannot work that way: it gets a clear TypeError pointing to
gpupy.where or a CudaKernel, never a silent per-element loop on the host.
"""

import numpy

from gpupy import _core
from gpupy._host_library import device_arrays

__all__ = ["frompyfunc", "vectorize"]

_NO_VALUE = object()

_ADVICE = (
    "calls the function once on whole arrays, not once per element, so the function must not "
    "branch on element values or convert them to Python numbers; write the branch with "
    "gpupy.where (or move the loop into a gpupy.cunumpy.CudaKernel)"
)


def _otype_chars(otypes):
    """otypes as NumPy keeps them: a string of type codes, or a list of them."""
    if otypes is None:
        return None
    if isinstance(otypes, str):
        for char in otypes:
            if char not in numpy.typecodes["All"]:
                raise ValueError(f"[vectorize] Invalid otype specified: {char}")
        return otypes
    try:
        return [numpy.dtype(t).char for t in otypes]
    except TypeError:
        raise ValueError("[vectorize] Invalid otype specification") from None


def _call_on_arrays(op, func, arrays):
    """func(*arrays), turning the errors of element-wise branching into a TypeError that says
    what to do instead."""
    try:
        return func(*arrays)
    except ValueError as err:
        if "truth value of an array" not in str(err):
            raise
        raise TypeError(
            f"[{op}] the function branched on an array's values: gpupy {_ADVICE}"
        ) from err
    except TypeError as err:
        if "converted to Python scalars" not in str(err):
            raise
        raise TypeError(
            f"[{op}] the function converted an array to a Python number: gpupy {_ADVICE}"
        ) from err


def _as_result(op, out, shape, device, inputs, dtype):
    """One output as a new gpupy array of the broadcast shape (cast to dtype when given)."""
    from gpupy import asarray, broadcast_to, may_share_memory

    if isinstance(out, _core.ndarray) and out.shape != shape:
        # Computed from the arrays but not of their shape: a reduction, which NumPy's per-element
        # calls would have applied to single elements.
        raise TypeError(
            f"[{op}] the function returned shape {out.shape} for inputs of shape {shape}: it "
            f"must be element-wise (gpupy {_ADVICE})"
        )
    out = asarray(out, device=device)
    if out.shape != shape:
        out = broadcast_to(out, shape)
    fresh = not any(may_share_memory(out, a) for a in inputs) and out.shape == shape
    if dtype is not None:
        return out.astype(dtype, copy=not fresh or out._readonly)
    return out if fresh and not out._readonly else out.copy()


def _apply(op, func, values, otypes, nout=None):
    """func called once on the broadcast gpupy arrays of `values`; results as NumPy's vectorize
    shapes and types them."""
    from gpupy import broadcast_arrays, empty

    arrays = device_arrays(op, *values)
    device = arrays[0].device
    try:
        arrays = broadcast_arrays(*arrays) if len(arrays) > 1 else arrays
    except ValueError as err:
        raise ValueError(f"[{op}] {str(err).split('] ', 1)[-1]}") from None
    shape = arrays[0].shape
    if arrays[0].size == 0 and op == "vectorize":
        if otypes is None:
            raise ValueError(
                "[vectorize] cannot call `vectorize` on size 0 inputs unless `otypes` is set"
            )
        outs = tuple(empty(shape, dtype=t, device=device) for t in otypes)
        return outs[0] if len(outs) == 1 else outs
    outputs = _call_on_arrays(op, func, arrays)
    outputs = outputs if isinstance(outputs, tuple) else (outputs,)
    expected = len(otypes) if otypes is not None else nout
    if expected is not None and len(outputs) != expected:
        raise ValueError(
            f"[{op}] the function returned {len(outputs)} outputs, expected {expected}"
        )
    types = otypes if otypes is not None else [None] * len(outputs)
    res = tuple(
        _as_result(op, o, shape, device, arrays, t) for o, t in zip(outputs, types, strict=True)
    )
    return res[0] if len(res) == 1 else res


class vectorize:
    """See numpy.vectorize, with one deliberate difference: gpupy calls ``pyfunc`` once, with the
    broadcast inputs as whole gpupy arrays, instead of once per element. A function written with
    arithmetic operators and array functions (``gpupy.sin``, ``numpy.exp`` on gpupy arrays, ...)
    therefore runs on the arrays' device in one pass and gives NumPy's values, shape and dtype.
    A function that branches on element values (``if x > 0:``) or converts them to Python numbers
    (``math.sin(x)``) raises TypeError: rewrite the branch with ``gpupy.where`` or use a
    ``gpupy.cunumpy.CudaKernel``. gpupy never loops over the elements on the host. The function
    must be element-wise: a reduction (``x.sum()``) sees the whole array, and is refused only when
    it changes the shape (``x - x.mean()`` gives the whole array's answer, not NumPy's).

    ``otypes`` casts the outputs; ``excluded`` positions and names are passed through unchanged;
    ``cache`` has no effect (the function is called once anyway); ``signature`` (generalised
    ufuncs) is not implemented. Results are new arrays on the inputs' device.
    """

    def __init__(
        self, pyfunc=_NO_VALUE, otypes=None, doc=None, excluded=None, cache=False, signature=None
    ):
        if pyfunc is not _NO_VALUE and not callable(pyfunc):
            raise TypeError("[vectorize] When used as a decorator, only accepts keyword arguments.")
        if signature is not None:
            raise NotImplementedError(
                "[vectorize] signature= (generalised ufuncs) is not implemented in gpupy"
            )
        self.pyfunc = pyfunc
        self.cache = cache
        self.signature = signature
        self.otypes = _otype_chars(otypes)
        self.excluded = set() if excluded is None else set(excluded)
        self._doc = doc
        if pyfunc is not _NO_VALUE:
            self._adopt(pyfunc)

    def _adopt(self, pyfunc):
        self.pyfunc = pyfunc
        if hasattr(pyfunc, "__name__"):
            self.__name__ = pyfunc.__name__
        self.__doc__ = self._doc if self._doc is not None else getattr(pyfunc, "__doc__", None)

    def __call__(self, *args, **kwargs):
        if self.pyfunc is _NO_VALUE:
            # Decorator form: @gpupy.vectorize(otypes=...) receives the function here.
            self._adopt(*args, **kwargs)
            return self
        inds = [i for i in range(len(args)) if i not in self.excluded]
        names = [n for n in kwargs if n not in self.excluded]
        if not inds and not names:
            return self.pyfunc(*args, **kwargs)

        def call(*arrays):
            the_args = list(args)
            for k, i in enumerate(inds):
                the_args[i] = arrays[k]
            the_kwargs = dict(kwargs, **dict(zip(names, arrays[len(inds) :], strict=True)))
            return self.pyfunc(*the_args, **the_kwargs)

        values = [args[i] for i in inds] + [kwargs[n] for n in names]
        return _apply("vectorize", call, values, self.otypes)


class _FromPyFunc:
    """The callable gpupy.frompyfunc returns (NumPy returns a ufunc over object arrays)."""

    def __init__(self, func, nin, nout, identity):
        self.func, self.nin, self.nout, self.nargs = func, nin, nout, nin + nout
        self.identity = identity
        self.__name__ = f"{getattr(func, '__name__', 'func')} (vectorized)"

    def __call__(self, *args, **kwargs):
        if kwargs:
            raise NotImplementedError(
                f"[frompyfunc] keyword arguments ({', '.join(kwargs)}) are not supported"
            )
        if len(args) != self.nin:
            raise TypeError(
                f"[frompyfunc] {self.__name__} takes {self.nin} arguments, {len(args)} given"
            )
        return _apply("frompyfunc", self.func, args, None, self.nout)

    def __repr__(self):
        return f"<gpupy.frompyfunc '{self.__name__}'>"


def frompyfunc(func, /, nin, nout, *, identity=None):
    """See numpy.frompyfunc. NumPy's version returns a ufunc producing object arrays, which gpupy
    does not have: gpupy's calls ``func`` once on the whole broadcast gpupy arrays, exactly as
    gpupy.vectorize without otypes (see its docstring for what the function may do), and returns
    arrays of the dtype the function's array operations give (a tuple of ``nout`` of them when
    ``nout > 1``). Keyword arguments of ufunc calls (out=, where=, ...) are not supported."""
    if not callable(func):
        raise TypeError("[frompyfunc] function must be callable")
    for name, n, low in (("nin", nin, 1), ("nout", nout, 1)):
        if isinstance(n, bool) or not isinstance(n, (int, numpy.integer)):
            raise TypeError(f"[frompyfunc] {name} must be an integer")
        if n < low:
            raise ValueError(f"[frompyfunc] {name} must be at least {low}")
    return _FromPyFunc(func, int(nin), int(nout), identity)
