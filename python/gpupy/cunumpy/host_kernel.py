"""PyccelKernel: a host kernel (Pyccel, Numba or plain Python) called with device arrays by
copying them to the host and back. Correct, visible (every copy is recorded), never fast."""

import ast
import copy
import inspect
import os
import sys
import typing

import numpy

from gpupy.cunumpy import profiling
from gpupy.cunumpy._backend import array_backend, is_gpu

_SCALARS = (int, float, bool, complex, str)
_SCALAR_NAMES = {t.__name__ for t in _SCALARS}


def _is_gpupy(a):
    t = type(a)
    return t.__name__ == "ndarray" and t.__module__.startswith("gpupy")


def _is_device_array(a):
    """gpupy arrays (never NumPy arrays, whatever the device) and CUDA-interface objects."""
    return _is_gpupy(a) or hasattr(type(a), "__cuda_array_interface__")


def _host_copy(a):
    if hasattr(a, "get"):
        return a.get(order="A")  # F-contiguous device arrays stay F-ordered for the kernel
    return a.copy_to_host()  # Numba device arrays


def _write_back(dev, host):
    if hasattr(dev, "copy_to_device") and not hasattr(dev, "get"):
        dev.copy_to_device(host)
    else:
        dev[...] = host


def _describe(a):
    return f"shape={tuple(a.shape)}, dtype={numpy.dtype(a.dtype).name}"


def python_parameters(func):
    """Positional parameter names of a Python function, of a Numba dispatcher's py_func, or of a
    compiled wrapper's `.python`; None when not readable."""
    for f in (func, getattr(func, "py_func", None), getattr(func, "python", None)):
        if f is None:
            continue
        try:
            sig = inspect.signature(f)
        except (TypeError, ValueError):
            continue
        kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        if any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in sig.parameters.values()):
            continue  # *args (a wrapper's __call__): the wrapped function may tell
        return [p.name for p in sig.parameters.values() if p.kind in kinds]
    return pyccel_stub_parameters(func)


def pyccel_stub_parameters(func):
    """Parameter names of a Pyccel-compiled function, read from the stub Pyccel writes next to
    the extension module (__pyccel__/<module>.pyi); None when there is none."""
    module = sys.modules.get(getattr(func, "__module__", None) or "")
    path = getattr(module, "__file__", None)
    if not path:
        return None
    stub = os.path.join(os.path.dirname(path), "__pyccel__", module.__name__ + ".pyi")
    try:
        with open(stub, encoding="utf-8") as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError):
        return None
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == getattr(func, "__name__", None):
            return [a.arg for a in node.args.posonlyargs + node.args.args]
    return None


def outputs_from_annotations(func):
    """Names of the parameters a kernel may write: annotated ones that are not Final, const or
    scalars, plus unannotated ones; None without a signature or without any annotation."""
    try:
        params = inspect.signature(func).parameters.values()
    except (TypeError, ValueError):
        return None
    if all(p.annotation is inspect.Parameter.empty for p in params):
        return None
    return tuple(p.name for p in params if _may_write(p.annotation))


def _may_write(ann):
    if ann is inspect.Parameter.empty:
        return True
    if isinstance(ann, str):
        text = ann.strip()
        return not (text.startswith(("const", "Final")) or text in _SCALAR_NAMES)
    if ann in _SCALARS or typing.get_origin(ann) is typing.Final:
        return False
    return True


def _check_outputs(outputs):
    if outputs is None:
        return None
    if isinstance(outputs, (int, str)):
        raise TypeError(
            "outputs must be a sequence of argument indices or names, got "
            f"{outputs!r}; did you mean outputs=({outputs!r},)?"
        )
    outputs = tuple(outputs)
    for o in outputs:
        if isinstance(o, bool) or not isinstance(o, (int, str)):
            raise TypeError(f"outputs entries must be ints or strings, got {o!r}")
    return outputs


class PyccelKernel:
    """Calls `kernel` directly on host data; with device arrays (or a GPU backend) copies every
    reachable device array to the host once, calls, and copies the outputs back."""

    def __init__(
        self, kernel, use_cupy=None, object_modules=(), is_array=None, outputs=None, parameters=None
    ):
        if not callable(kernel):
            raise TypeError(f"PyccelKernel needs a callable, got {type(kernel).__name__}")
        self._kernel = kernel
        self._use_cupy = use_cupy
        self._object_modules = tuple(object_modules)
        self._is_array = is_array
        self._outputs = _check_outputs(outputs)
        self.parameters = parameters
        self._name = getattr(kernel, "__name__", type(kernel).__name__)

    name = property(lambda s: s._name)
    kernel = property(lambda s: s._kernel)
    use_cupy = property(lambda s: s._use_cupy)
    object_modules = property(lambda s: s._object_modules)
    is_array = property(lambda s: s._is_array)
    outputs = property(lambda s: s._outputs)

    def __repr__(self):
        return f"PyccelKernel({self._name!r})"

    def parameter_names(self):
        """Parameter names: `parameters=` (list or callable), else the Python signature."""
        p = self.parameters
        if p is not None:
            return list(p() if callable(p) else p)
        return python_parameters(self._kernel)

    def __call__(self, *args, **kwargs):
        convert = self._use_cupy
        if convert is None:
            convert = array_backend.name != "numpy" or self._reachable(args, kwargs)
        if not convert:
            return self._kernel(*args, **kwargs)
        roots = self._output_roots(args, kwargs)
        conv = _Conversion(self._object_modules)
        host_args = [conv.convert(a, ("pos", i)) for i, a in enumerate(args)]
        host_kwargs = {k: conv.convert(v, ("kw", k)) for k, v in kwargs.items()}
        if conv.copies and profiling._active:
            n = len(conv.copies)
            desc = f"PyccelKernel '{self._name}': {n} device array(s) copied to the host"
            profiling.record("kernel_conversion", desc)
        result = self._kernel(*host_args, **host_kwargs)
        for dev, host, reached_from in conv.copies:
            if roots is None or reached_from & roots:
                _write_back(dev, host)
                if profiling._active and is_gpu(dev):
                    desc = f"PyccelKernel '{self._name}': output {_describe(host)} copied back"
                    profiling.record("to_device", desc, host.nbytes)
        return self._to_device(result, conv)

    def _reachable(self, args, kwargs):
        probe = _Conversion(self._object_modules, dry=True)
        for a in (*args, *kwargs.values()):
            probe.convert(a, None)
        return bool(probe.copies)

    def _output_roots(self, args, kwargs):
        """The top-level arguments declared as outputs, resolved before the call so that a bad
        declaration is reported even when the kernel would fail."""
        if self._outputs is None:
            return None
        names = self.parameter_names()
        roots = set()
        for o in self._outputs:
            roots.add(_resolve_output(o, args, kwargs, names))
        return roots

    def _to_device(self, result, conv):
        is_array = self._is_array or (lambda v: isinstance(v, numpy.ndarray))
        if isinstance(result, (tuple, list)):
            return type(result)(self._to_device(r, conv) for r in result)
        if not is_array(result):
            return result
        out = _upload(result, conv.device)
        if profiling._active and is_gpu(out):
            desc = f"PyccelKernel '{self._name}': result {_describe(out)}"
            profiling.record("to_device", desc, out.nbytes)
        return out


def _upload(host, device):
    if device is not None:
        import gpupy

        return gpupy.asarray(host, device=device)
    if array_backend.name == "numpy":
        return host
    return array_backend.module.asarray(host)


def _resolve_output(o, args, kwargs, names):
    if isinstance(o, int):
        i = o if o >= 0 else len(args) + o
        if 0 <= i < len(args):
            return ("pos", i)
        if names is not None and 0 <= o < len(names):
            return ("kw", names[o])
        hint = "" if names is not None else "; keyword arguments must be declared by name"
        raise IndexError(f"outputs: index {o} is out of range for {len(args)} argument(s){hint}")
    if o in kwargs:
        return ("kw", o)
    if names is not None and o in names:
        i = names.index(o)
        return ("pos", i) if i < len(args) else ("kw", o)
    hint = "" if names is not None else "; positional arguments must be declared by index"
    raise KeyError(f"outputs: no argument named {o!r}{hint}")


class _Conversion:
    """One call's host copies: a memo by id keeps aliases one host array (written back once) and
    ends cycles; `copies` lists (device, host, set of top-level roots it was reached from)."""

    def __init__(self, object_modules, dry=False):
        self._modules = object_modules
        self._dry = dry
        self._memo = {}
        self._by_id = {}
        self.copies = []
        self.device = None

    def convert(self, value, root):
        key = id(value)
        if key in self._by_id:
            self._by_id[key][2].add(root)
        if key in self._memo:
            return self._memo[key]
        if _is_device_array(value):
            host = None if self._dry else self._copy(value)
            entry = (value, host, {root})
            self._by_id[key] = entry
            self.copies.append(entry)
            self._memo[key] = host
            return host
        return self._container(value, root, key)

    def _copy(self, value):
        host = _host_copy(value)
        if self.device is None and _is_gpupy(value) and str(value.device) != "cpu":
            self.device = value.device  # results go back to the device the arguments came from
        if profiling._active and is_gpu(value):
            profiling.record("to_host", f"PyccelKernel argument {_describe(value)}", host.nbytes)
        return host

    def _container(self, value, root, key):
        if isinstance(value, list):
            out = self._memo[key] = []
            out.extend(self.convert(v, root) for v in value)
            return out
        if isinstance(value, tuple):
            items = [self.convert(v, root) for v in value]
            return type(value)(*items) if hasattr(value, "_fields") else tuple(items)
        if isinstance(value, dict):
            out = self._memo[key] = {}
            out.update((k, self.convert(v, root)) for k, v in value.items())
            return out
        module = type(value).__module__ or ""
        if self._modules and module.startswith(self._modules) and hasattr(value, "__dict__"):
            out = self._memo[key] = copy.copy(value)
            for k, v in vars(value).items():
                setattr(out, k, self.convert(v, root))
            return out
        return value


def host_call(fun, *args, **kwargs):
    """fun(*args, **kwargs) on host copies of the device arrays among the arguments; array results
    come back to the device (the arguments' device, else the active backend). Arguments are not
    written back: for host-only code that reads its inputs. Every copy is counted."""
    return PyccelKernel(fun, outputs=())(*args, **kwargs)


def evaluate_on_host(fun):
    """Decorator: every call of fun goes through host_call."""
    import functools

    @functools.wraps(fun)
    def call(*args, **kwargs):
        return host_call(fun, *args, **kwargs)

    return call


# Set-up code (meshes, initial conditions) is host code whose results the active backend needs:
# the same conversion as evaluate_on_host.
setup_on_host = evaluate_on_host
