"""Test helpers for host/CUDA kernel pairs: run both on the same arguments and compare. Without a
GPU the CUDA kernels run on the emu device, so the parity checks really execute both sides.

CUNUMPY_REQUIRE_CUDA=1 turns every "no device, skip" into a failure (for GPU CI runners)."""

import contextlib
import os
import re

import numpy

from gpupy.cunumpy._backend import to_numpy, use_backend
from gpupy.cunumpy.kernel import Kernel

TEST_ARGS_SETTINGS = {
    "N_THREADS": "n_threads",
    "GRID": "grid",
    "BLOCK": "block",
    "RTOL": "rtol",
    "ATOL": "atol",
    "N_CALLS": "n_calls",
    "OUTPUTS": "outputs",
    "SEED": "seed",
}
DEVICE_BACKEND = "gpupy"
_NO_DEVICE = "no device runs CUDA kernels (neither cuda nor emu)"


def cuda_required():
    """True when CUNUMPY_REQUIRE_CUDA asks GPU tests to fail instead of skipping."""
    return os.environ.get("CUNUMPY_REQUIRE_CUDA", "").strip().lower() in ("1", "true", "yes")


def kernel_device():
    """The device CUDA kernels run on in tests: the default device when it is not cpu, else
    emu when gpupy has it; None without either."""
    import gpupy

    default = str(gpupy._core.default_device())
    if default != "cpu":
        return default
    try:
        gpupy.zeros(1, device="emu")
    except (NotImplementedError, RuntimeError, ValueError):
        return None
    return "emu"


def device_backend_available():
    return kernel_device() is not None


def _skip_device():
    """The skipif condition of requires_device_backend, evaluated at test setup."""
    return not cuda_required() and not device_backend_available()


@contextlib.contextmanager
def on_backend(name, *, strict=False):
    """The backend, and for the device backend the kernel device as default device."""
    import gpupy

    with use_backend(name, strict=strict) as module:
        if name == "numpy":
            yield module
            return
        device = kernel_device()
        if device is None:
            raise RuntimeError(_NO_DEVICE)
        with gpupy.Device(device):
            yield module


def _skip_or_fail(reason):
    import pytest

    if cuda_required():
        pytest.fail(f"{reason} (CUNUMPY_REQUIRE_CUDA is set)")
    pytest.skip(reason)


def __getattr__(name):
    """pytest objects, built on first use so that importing this module needs no pytest."""
    import pytest

    cond = "__import__('gpupy.cunumpy.kernel_testing').cunumpy.kernel_testing._skip_device()"
    if name in ("requires_device_backend", "requires_cupy", "requires_gpu"):
        return pytest.mark.skipif(cond, reason=_NO_DEVICE)
    if name == "BACKENDS":
        return [
            "numpy",
            pytest.param(DEVICE_BACKEND, marks=pytest.mark.skipif(cond, reason=_NO_DEVICE)),
        ]
    if name == "backend":
        return _backend_fixture(pytest)
    raise AttributeError(f"module 'gpupy.cunumpy.kernel_testing' has no attribute {name!r}")


def _backend_fixture(pytest):
    @pytest.fixture(params=__getattr__("BACKENDS"))
    def backend(request):
        with on_backend(request.param, strict=cuda_required()):
            yield request.param

    return backend


def assert_kernels_agree(
    kernel,
    make_args,
    *,
    n_threads=None,
    grid=None,
    block=None,
    rtol=1e-12,
    atol=0.0,
    n_calls=1,
    outputs=None,
    seed=0,
):
    """Runs the host kernel (NumPy backend) and the CUDA kernel (device backend) on arguments
    from make_args(backend, seed) and compares the arrays they write; returns the host ones."""
    if not isinstance(kernel, Kernel):
        raise TypeError(f"assert_kernels_agree needs a Kernel, got {type(kernel).__name__}")
    if not kernel.has_cuda:
        raise ValueError(f"kernel '{kernel.name}' has no CUDA version")
    if n_threads is None and grid is None and kernel.cuda_kernel.n_threads_from is None:
        raise TypeError(f"kernel '{kernel.name}': pass n_threads or grid")
    if n_calls < 1:
        raise ValueError("n_calls must be at least 1")
    if not device_backend_available():
        _skip_or_fail(_NO_DEVICE)
    results = {}
    for backend in ("numpy", DEVICE_BACKEND):
        with on_backend(backend):
            args = tuple(make_args(backend, seed))
            n = n_threads(args) if callable(n_threads) else n_threads
            for _ in range(n_calls):
                kernel(*args, n_threads=n, grid=grid, block=block)
            results[backend] = _collect(kernel, args, outputs)
    host, device = results["numpy"], results[DEVICE_BACKEND]
    if host.keys() != device.keys():
        raise AssertionError(
            f"{kernel.name}: the host and CUDA runs do not have the same array arguments "
            f"({sorted(host)} and {sorted(device)})"
        )
    for name, h in host.items():
        numpy.testing.assert_allclose(
            device[name],
            h,
            rtol=rtol,
            atol=atol,
            err_msg=f"{kernel.name}: {name} differs between the host and CUDA kernels",
        )
    return host


def _collect(kernel, args, outputs):
    """{'argument i...': NumPy copy} of the arrays among the selected arguments."""
    if outputs is None:
        outputs = kernel.host_kernel.outputs
    names = kernel.host_parameters() or []
    selected = range(len(args)) if outputs is None else outputs
    found = {}
    for entry in selected:
        index, field = _entry(entry, names, len(args))
        value, label = args[index], f"argument {index}"
        if field is not None:
            if not hasattr(value, field):
                raise KeyError(f"{label} has no field {field!r}")
            value, label = getattr(value, field), f"{label}.{field}"
        _arrays(value, label, found, depth=2)
    return found


def _entry(entry, names, n_args):
    field = None
    if isinstance(entry, str):
        entry, _, field = entry.partition(".")
        field = field or None
        if entry.isdigit():
            entry = int(entry)
        elif entry in names:
            entry = names.index(entry)
        else:
            raise KeyError(f"outputs: no parameter named {entry!r} (parameters: {names})")
    i = entry if entry >= 0 else n_args + entry
    if not 0 <= i < n_args:
        raise IndexError(f"outputs: index {entry} is out of range for {n_args} argument(s)")
    return i, field


def _arrays(value, label, found, depth):
    if hasattr(value, "shape") and hasattr(value, "dtype") and not numpy.isscalar(value):
        found[label] = to_numpy(value)
    elif depth == 0:
        return
    elif isinstance(value, (list, tuple)):
        for j, v in enumerate(value):
            _arrays(v, f"{label}[{j}]", found, depth - 1)
    elif isinstance(value, dict):
        for k, v in value.items():
            _arrays(v, f"{label}[{k!r}]", found, depth - 1)
    elif hasattr(value, "__dict__") and not isinstance(value, type):
        for k, v in vars(value).items():
            _arrays(v, f"{label}.{k}", found, depth - 1)


def parity_cases(catalog):
    """One pytest.param(kernel, id=name) per kernel with a CUDA version; skipped when the kernel
    has no test-arguments module."""
    import pytest

    cases = []
    for name, kernel in catalog.parity_cases():
        marks = ()
        if kernel.test_args_module is None:
            reason = f"no test arguments for '{name}': add {name}_test_args.py with make_args"
            marks = pytest.mark.skip(reason=reason)
        cases.append(pytest.param(kernel, id=name, marks=marks))
    return cases


def check_parity(kernel, **overrides):
    """assert_kernels_agree with make_args and settings (N_THREADS, RTOL, ...) from the kernel's
    test-arguments module; keyword arguments override them."""
    module = kernel.test_args
    if module is None:
        raise ValueError(f"kernel '{kernel.name}' has no test-arguments module")
    make_args = getattr(module, "make_args", None)
    if not callable(make_args):
        raise TypeError(f"{module.__name__} must define a callable make_args(backend, seed)")
    kw = {v: getattr(module, k) for k, v in TEST_ARGS_SETTINGS.items() if hasattr(module, k)}
    kw.update(overrides)
    return assert_kernels_agree(kernel, make_args, **kw)


_PROTOTYPE = re.compile(
    r"^\s*(?:(?:__device__|__host__|__forceinline__|static|inline)\s+)*"
    r"(?P<ret>[A-Za-z_][\w\s]*?[\w*&\s]*?)\s*(?<![\w])(?P<name>[A-Za-z_]\w*)\s*"
    r"\((?P<params>[^()]*)\)\s*;?\s*$",
    re.S,
)
_PARAMETER = re.compile(r"^(?P<type>[A-Za-z_][\w\s]*?)\s*(?P<mod>[*&]?)\s*(?P<name>[A-Za-z_]\w*)$")


def device_function_kernel(
    header_source,
    signature,
    *,
    name=None,
    includes=(),
    n_threads_param="n",
    out_param="out",
    **cuda_kernel_options,
):
    """A CudaKernel that calls the __device__ function of prototype `signature` (defined in
    header_source) once per element: scalar parameters `T x` become arrays `const T* x` read at
    [i], pointers pass through, structs (from structs=) pass by value, a non-void result goes to
    `R* out`, and a final `int n` bounds the launch (and sets n_threads unless n_threads_from is
    given). For testing device functions on arrays."""
    from gpupy.cunumpy.cuda_kernel import CudaKernel

    fn, ret, params = _parse_prototype(signature)
    structs = {s.name for s in cuda_kernel_options.get("structs", ())}
    if ret.endswith("*") or ret.endswith("&"):
        raise ValueError(f"device_function_kernel: {fn} returns a pointer or reference ({ret})")
    if ret in structs:
        raise ValueError(f"device_function_kernel: {fn} returns a struct ({ret}); unsupported")
    if ret != "void" and _scalar_ctype(ret) is None:
        raise ValueError(f"device_function_kernel: unsupported return type {ret!r} of {fn}")
    kernel_params, call = [], []
    for ctype, mod, pname, text in params:
        if pname in (out_param, n_threads_param):
            raise ValueError(
                f"device_function_kernel: parameter {pname!r} of {fn} collides with the "
                f"kernel's {pname!r} parameter; pass out_param= or n_threads_param="
            )
        base = " ".join(t for t in ctype.split() if t != "const")
        if mod == "&":
            if base not in structs:
                raise ValueError(
                    f"device_function_kernel: parameter {text!r} of {fn} is a reference to a "
                    "non-struct type; only structs (structs=) may be taken by reference"
                )
            kernel_params.append(f"{base} {pname}")
            call.append(pname)
        elif mod == "*":
            kernel_params.append(text)
            call.append(pname)
        elif base in structs:
            kernel_params.append(f"{base} {pname}")
            call.append(pname)
        elif _scalar_ctype(base) is not None:
            kernel_params.append(f"const {base}* {pname}")
            call.append(f"{pname}[i]")
        else:
            raise ValueError(f"device_function_kernel: unsupported parameter type in {text!r}")
    if ret != "void":
        kernel_params.append(f"{ret}* {out_param}")
    kernel_params.append(f"int {n_threads_param}")
    name = name or f"{fn}_kernel"
    invoke = f"{fn}({', '.join(call)})"
    body = f"{out_param}[i] = {invoke};" if ret != "void" else f"{invoke};"
    lines = [f"#include {h}" if h.startswith("<") else f'#include "{h}"' for h in includes]
    source = "\n".join(
        [
            *lines,
            header_source,
            f'extern "C" __global__ void {name}({", ".join(kernel_params)}) {{',
            "  int i = blockIdx.x * blockDim.x + threadIdx.x;",
            f"  if (i >= {n_threads_param}) return;",
            f"  {body}",
            "}",
            "",
        ]
    )
    cuda_kernel_options.setdefault("n_threads_from", _last_argument)
    return CudaKernel(source, name, **cuda_kernel_options)


def _last_argument(args):
    """n_threads of a device_function_kernel launch: its final `n` argument."""
    n = args[-1] if args else None
    if isinstance(n, bool) or not isinstance(n, (int, numpy.integer)):
        raise TypeError("the last argument of a device_function_kernel launch must be the int n")
    return int(n)


def _parse_prototype(signature):
    """(function name, return type, [(type, '*'|'&'|'', name, text)]) of a C prototype."""
    text = re.sub(r"\s+", " ", re.sub(r"\{.*\}\s*$", "", signature.strip(), flags=re.S)).strip()
    m = _PROTOTYPE.match(text)
    if m is None:
        raise ValueError(f"device_function_kernel: cannot parse the prototype {signature!r}")
    ret = re.sub(r"\s*([*&])", r"\1", m["ret"].strip())
    ret = " ".join(t for t in ret.split() if t not in ("const",)) or ret
    params = []
    plist = m["params"].strip()
    for part in [] if plist in ("", "void") else plist.split(","):
        part = part.strip()
        p = _PARAMETER.match(re.sub(r"\s*([*&])\s*", r" \1 ", part).strip())
        if p is None:
            raise ValueError(
                f"device_function_kernel: cannot parse parameter {part!r} of {signature!r}"
            )
        params.append((p["type"].strip(), p["mod"], p["name"], part))
    return m["name"], ret, params


def _scalar_ctype(ctype):
    from gpupy import _core

    try:
        return _core._dtype_of_ctype(ctype)
    except (ValueError, TypeError):
        return None
