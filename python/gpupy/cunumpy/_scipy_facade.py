"""`xp.scipy`: SciPy for the active backend, resolved at every attribute access (a switch takes
effect at once; nothing is imported before a name is used).

- numpy backend: `scipy.<path>.<name>`, SciPy's own object.
- cupy backend: `cupyx.scipy.<path>.<name>` (plus solve_circulant, which cupyx lacks).
- gpupy backend: what gpupy runs on the device, else SciPy on the host through host_call:
  * on the device: scipy.fft's transforms, shifts and frequencies that gpupy.fft has (fft,
    ifft, fft2, ifft2, fftn, ifftn, rfft, irfft, rfft2, irfft2, rfftn, irfftn, hfft, ihfft,
    fftfreq, rfftfreq, fftshift, ifftshift; `workers` and `overwrite_x` are accepted and
    ignored, `plan` is refused) and linalg.solve_circulant;
  * xp.optimize's fsolve, root and minimize and xp.integrate's quad and odeint (SciPy on the
    host, callbacks on the device);
  * any other SciPy function: device arrays among the arguments copied down, array results
    copied back to the arguments' device, every copy counted by count_transfers;
  * other objects (classes, constants, stats distributions): SciPy's own, holding host data.
A name the backend lacks raises AttributeError naming the backend."""

import functools
import importlib
import types

SUBMODULES = (
    "cluster",
    "constants",
    "fft",
    "fftpack",
    "integrate",
    "interpolate",
    "linalg",
    "ndimage",
    "optimize",
    "signal",
    "sparse",
    "sparse.csgraph",
    "sparse.linalg",
    "spatial",
    "special",
    "stats",
)
_ROOTS = {"numpy": "scipy", "gpupy": "scipy", "cupy": "cupyx.scipy"}
_FFT_1D = ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")
_NEED_SCIPY = ("optimize", "integrate")  # gpupy's versions bridge to SciPy's solvers
_FFT_ND = ("fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn", "rfftn", "irfftn")


def _backend():
    from gpupy.cunumpy._backend import array_backend

    return array_backend.name


def _fft_1d(name):
    def transform(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
        _no_plan(name, plan)
        import gpupy

        return getattr(gpupy.fft, name)(x, n, axis, norm)

    return transform


def _fft_nd(name):
    default_axes = (-2, -1) if name.endswith("2") else None

    def transform(
        x, s=None, axes=default_axes, norm=None, overwrite_x=False, workers=None, *, plan=None
    ):
        _no_plan(name, plan)
        import gpupy

        return getattr(gpupy.fft, name)(x, s, axes, norm)

    return transform


def _no_plan(name, plan):
    if plan is not None:
        raise NotImplementedError(f"[scipy.fft.{name}] plan= is not supported on the gpupy backend")


def _frequencies(name):
    def freq(n, d=1.0, *, xp=None, device=None):
        import gpupy

        return getattr(gpupy.fft, name)(n, d, device=device)

    return freq


def _shift(name):
    def shift(x, axes=None):
        import gpupy

        return getattr(gpupy.fft, name)(x, axes)

    return shift


@functools.cache
def _gpupy_names(path):
    """{name: function} that the gpupy backend serves itself for scipy.<path>."""
    from gpupy.cunumpy import _circulant, _scipy_host

    if path == "fft":
        names = {n: _fft_1d(n) for n in _FFT_1D}
        names.update((n, _fft_nd(n)) for n in _FFT_ND)
        names.update((n, _frequencies(n)) for n in ("fftfreq", "rfftfreq"))
        names.update((n, _shift(n)) for n in ("fftshift", "ifftshift"))
    elif path == "linalg":
        names = {"solve_circulant": _circulant.solve_circulant}
    elif path == "optimize":
        names = {n: getattr(_scipy_host, n) for n in ("fsolve", "root", "minimize")}
    elif path == "integrate":
        names = {n: getattr(_scipy_host, n) for n in ("quad", "odeint")}
    else:
        names = {}
    for n, f in names.items():
        f.__name__ = f.__qualname__ = n
        f.__doc__ = f.__doc__ or f"See scipy.{path}.{n}; runs on the gpupy device."
    return names


_host_wrappers = {}  # SciPy function -> its host_call wrapper, made once


def _on_host(fun):
    wrapper = _host_wrappers.get(fun)
    if wrapper is None:
        from gpupy.cunumpy.host_kernel import host_call

        @functools.wraps(fun)
        def wrapper(*args, **kwargs):
            return host_call(fun, *args, **kwargs)

        _host_wrappers[fun] = wrapper
    return wrapper


def _is_function(obj):
    """Plain functions, builtins and NumPy ufuncs (scipy.special); classes are not."""
    import numpy

    kinds = (types.FunctionType, types.BuiltinFunctionType, numpy.ufunc, functools.partial)
    return isinstance(obj, kinds)


class ScipyNamespace:
    """One SciPy (sub)package for the active backend; `xp.scipy` is the root."""

    def __init__(self, path=""):
        if path and path not in SUBMODULES:
            raise ValueError(
                f"[scipy] scipy.{path} is not forwarded; forwarded: {', '.join(SUBMODULES)}"
            )
        self._path = path
        self._children = {}

    def __repr__(self):
        return f"<gpupy.cunumpy scipy namespace {self._module_name()} on the {_backend()} backend>"

    def _module_name(self, backend=None):
        root = _ROOTS[backend or _backend()]
        return f"{root}.{self._path}" if self._path else root

    def resolve(self):
        """The module the names come from on the active backend: scipy.<path> on numpy and gpupy
        (whose functions gpupy wraps or replaces, see the module doc), cupyx.scipy.<path> on
        cupy. ImportError when it is not installed."""
        backend = _backend()
        name = self._module_name(backend)
        try:
            return importlib.import_module(name)
        except ImportError as exc:
            what = "SciPy" if backend != "cupy" else "CuPy's cupyx.scipy"
            raise ImportError(
                f"[scipy] xp.scipy on the {backend} backend needs {name}: {what} is not installed"
                + (" (pip install scipy)" if backend != "cupy" else "")
            ) from exc

    def _child(self, name):
        path = f"{self._path}.{name}" if self._path else name
        if path not in SUBMODULES:
            return None
        if name not in self._children:
            self._children[name] = ScipyNamespace(path)
        return self._children[name]

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        child = self._child(name)
        if child is not None:
            return child
        backend = _backend()
        if backend == "gpupy":
            return self._gpupy_attr(name)
        module = self.resolve()
        try:
            return getattr(module, name)
        except AttributeError:
            if backend == "cupy" and self._path == "linalg" and name == "solve_circulant":
                return _gpupy_names("linalg")[name]
            raise AttributeError(self._missing(name, backend, module)) from None

    def _gpupy_attr(self, name):
        native = _gpupy_names(self._path).get(name)
        if native is not None and self._path not in _NEED_SCIPY:
            return native
        try:
            module = self.resolve()
        except ImportError:
            raise AttributeError(
                f"[scipy] xp.scipy.{self._qualified(name)} is not available on the gpupy "
                "backend: gpupy runs it with host SciPy, which is not installed (pip install scipy)"
            ) from None
        if native is not None:
            return native
        try:
            obj = getattr(module, name)
        except AttributeError:
            raise AttributeError(self._missing(name, "gpupy", module)) from None
        return _on_host(obj) if _is_function(obj) else obj

    def _qualified(self, name):
        return f"{self._path}.{name}" if self._path else name

    def _missing(self, name, backend, module):
        version = getattr(importlib.import_module(module.__name__.split(".")[0]), "__version__", "")
        where = " ".join(filter(None, (module.__name__, version)))
        return (
            f"[scipy] xp.scipy.{self._qualified(name)} is not available on the {backend} "
            f"backend: {where} has no {name!r}"
        )

    def available(self, name):
        """Whether `name` resolves on the active backend; never raises."""
        try:
            getattr(self, name)
        except (AttributeError, ImportError):
            return False
        child = self._child(name)
        if child is None:
            return True
        try:
            child.resolve()
        except ImportError:
            path = child._path
            return _backend() == "gpupy" and bool(_gpupy_names(path)) and path not in _NEED_SCIPY
        return True

    def __dir__(self):
        prefix = f"{self._path}." if self._path else ""
        children = {
            s[len(prefix) :]
            for s in SUBMODULES
            if s.startswith(prefix) and "." not in s[len(prefix) :]
        }
        try:
            names = set(dir(self.resolve()))
        except ImportError:
            names = set()
        if _backend() == "gpupy":
            names |= set(_gpupy_names(self._path))
        return sorted(names | children | {"available", "resolve"})


scipy = ScipyNamespace()
