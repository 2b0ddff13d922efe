"""Which implementation a kernel runs: the host versions of a kernel folder (pyccel, numba, numpy,
python) and the device version (cuda), chosen automatically or pinned process-wide (functions
or CUNUMPY_HOST_KERNEL_IMPLEMENTATION / CUNUMPY_DEVICE_KERNEL_IMPLEMENTATION)."""

import contextlib
import os
import warnings

HOST_IMPLEMENTATIONS = ("pyccel", "numba", "numpy", "python")
DEVICE_IMPLEMENTATIONS = ("cuda",)
_AUTOMATIC = ("pyccel", "numba", "numpy")  # preferred order when nothing is pinned
_setting = {"host": None, "device": None}


def _check(kind, name, allowed):
    if name is not None and name not in allowed:
        raise ValueError(
            f"{kind} kernel implementation must be one of {', '.join(allowed)} or None, "
            f"got {name!r}"
        )
    return name


def set_host_kernel_implementation(name):
    """Pins every HostImplementations to `name` (None: automatic choice)."""
    _setting["host"] = _check("host", name, HOST_IMPLEMENTATIONS)


def get_host_kernel_implementation():
    return _setting["host"]


def set_device_kernel_implementation(name):
    """ "cuda" makes a missing CUDA kernel a LookupError, even with missing_cuda="fallback"."""
    _setting["device"] = _check("device", name, DEVICE_IMPLEMENTATIONS)


def get_device_kernel_implementation():
    return _setting["device"]


@contextlib.contextmanager
def use_host_kernel_implementation(name):
    prev = _setting["host"]
    set_host_kernel_implementation(name)
    try:
        yield
    finally:
        _setting["host"] = prev


@contextlib.contextmanager
def use_device_kernel_implementation(name):
    prev = _setting["device"]
    set_device_kernel_implementation(name)
    try:
        yield
    finally:
        _setting["device"] = prev


def _from_env(var):
    value = os.environ.get(var, "").strip().lower()
    return value or None


def init_from_environment():
    """Reads the two variables at import; an invalid value fails the import."""
    set_host_kernel_implementation(_from_env("CUNUMPY_HOST_KERNEL_IMPLEMENTATION"))
    set_device_kernel_implementation(_from_env("CUNUMPY_DEVICE_KERNEL_IMPLEMENTATION"))


class HostImplementations:
    """The host versions of one kernel, each loaded on first use by a zero-argument loader;
    calls go to the selected one."""

    def __init__(self, name, loaders):
        for n in loaders:
            _check("host", n, HOST_IMPLEMENTATIONS)
        if "python" not in loaders:
            raise ValueError(f"kernel '{name}' needs a 'python' implementation")
        self.name = self.__name__ = name
        self._loaders = dict(loaders)
        self._loaded = {}
        self.errors = {}
        self._auto = None
        self._warned = False

    names = property(lambda s: tuple(n for n in HOST_IMPLEMENTATIONS if n in s._loaders))

    @property
    def python(self):
        return self.get("python")

    def get(self, name):
        """The implementation `name`, loaded now; LookupError when absent or failing."""
        if name not in self._loaders:
            raise LookupError(
                f"kernel '{self.name}' has no {name!r} implementation (it has "
                f"{', '.join(self.names)})"
            )
        if name not in self._loaded and name not in self.errors:
            try:
                self._loaded[name] = self._loaders[name]()
            except Exception as exc:  # noqa: BLE001 - kept and reported by get()
                self.errors[name] = exc
        if name in self.errors:
            err = self.errors[name]
            raise LookupError(
                f"kernel '{self.name}': the {name!r} implementation failed to load: {err}"
            ) from err
        return self._loaded[name]

    def available(self, name):
        try:
            self.get(name)
        except LookupError:
            return False
        return True

    def selected(self):
        """The name of the implementation a call runs."""
        pinned = _setting["host"]
        if pinned is not None:
            self.get(pinned)
            return pinned
        if self._auto is None:
            self._auto = next((n for n in _AUTOMATIC if self.available(n)), "python")
            if self._auto == "python" and not self._warned:
                self._warned = True
                warnings.warn(
                    f"kernel '{self.name}' has no compiled host implementation; running its "
                    "Python version",
                    RuntimeWarning,
                    stacklevel=4,
                )
        return self._auto

    def build(self):
        """The function a call runs (loads it now)."""
        return self.get(self.selected())

    def __call__(self, *args, **kwargs):
        return self.build()(*args, **kwargs)

    def __repr__(self):
        return f"HostImplementations({self.name!r}, {', '.join(self.names)})"
