"""gpupy.cunumpy against spec/kernel-layer.md: the statements docs/kernel_layer_conformance.md
lists as tested here (facade names, host-code helpers, the C type table, argument checks,
launch-size inference); test_cunumpy_spec_kernels.py has the rest. Launches run on emu without a
GPU, on cuda with one."""

import json
import os
import subprocess
import sys
import types
import warnings

import gpupy
import numpy
import pytest
from gpupy import cunumpy as xp
from kernel_packages import gpu_backend

gpu = gpu_backend  # the gpupy backend on emu (or cuda)


def _run(code, **env):
    """Runs code in a fresh interpreter that imports this gpupy; returns its stdout."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(gpupy.__file__)))
    full = dict(os.environ, PYTHONPATH=os.pathsep.join([root, *sys.path]), **env)
    out = subprocess.run([sys.executable, "-c", code], env=full, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout


# 1.1 / 1.2: the facade


def test_kernel_testing_and_pytest_are_not_imported_with_the_package():
    code = (
        "import sys; from gpupy import cunumpy as xp\n"
        "print('gpupy.cunumpy.kernel_testing' in sys.modules, 'pytest' in sys.modules)\n"
        "t = xp.kernel_testing\n"
        "print(t.__name__, 'pytest' in sys.modules, xp.rng.__name__, xp.algorithms.__name__)\n"
    )
    lines = _run(code).split("\n")
    assert lines[0] == "False False"
    assert (
        lines[1] == "gpupy.cunumpy.kernel_testing False gpupy.cunumpy.rng gpupy.cunumpy.algorithms"
    )


def test_environment_is_read_once_at_import():
    code = (
        "import os; from gpupy import cunumpy as xp; from gpupy.cunumpy import zeros\n"
        "os.environ['CUNUMPY_BACKEND'] = 'numpy'\n"
        "import importlib; print(xp.get_backend(), zeros.__module__.split('.')[0])\n"
        "xp.set_backend('numpy'); print(xp.get_backend(), zeros.__module__.split('.')[0])\n"
    )
    # `from cunumpy import zeros` keeps the function of the backend active at import.
    assert _run(code, CUNUMPY_BACKEND=" GpUpY ").split("\n")[:2] == ["gpupy gpupy", "numpy gpupy"]


def test_own_submodules_do_not_hide_numpy_names():
    assert xp.random is numpy.random and xp.fft is numpy.fft
    assert xp.rng.philox_uniform is not None and not hasattr(numpy, "rng")
    with xp.use_backend("gpupy"):
        assert xp.random is gpupy.random and xp.rng.__name__ == "gpupy.cunumpy.rng"


def test_xp_submodule_holds_the_backend_state():
    from gpupy.cunumpy.xp import array_backend

    state = xp.xp
    assert state.__name__ == "gpupy.cunumpy.xp" and array_backend is xp.array_backend
    # every name it lists is the package's own object, not a copy
    for name in set(state.__all__) - {"BACKENDS"}:
        assert getattr(state, name) is getattr(xp, name), name
    assert state.BACKENDS == ("numpy", "gpupy", "cupy")
    assert state.xp is numpy and array_backend.backend == "numpy" and array_backend.xp is numpy
    assert (state.numpy_backend, state.gpupy_backend, state.cupy_backend) == (True, False, False)
    with xp.use_backend("gpupy"):
        # resolved at each access: the module and the flags follow the switch
        assert state.xp is gpupy and array_backend.backend == "gpupy"
        assert array_backend.xp is gpupy and state.xp.zeros is gpupy.zeros
        assert (state.numpy_backend, state.gpupy_backend) == (False, True)
    assert state.xp is numpy and state.numpy_backend
    with pytest.raises(AttributeError, match="gpupy.cunumpy.xp' has no attribute 'nope'"):
        _ = state.nope
    with pytest.raises(AttributeError):
        array_backend.backend = "cupy"  # read-only: set_backend selects


def test_xp_submodule_loads_on_demand_and_follows_the_environment():
    code = (
        "import sys; from gpupy import cunumpy as xp\n"
        "print('gpupy.cunumpy.xp' in sys.modules)\n"
        "from gpupy.cunumpy.xp import xp as active, array_backend\n"
        "print(active.__name__, array_backend.backend, xp.xp.get_backend())\n"
    )
    assert _run(code, CUNUMPY_BACKEND="gpupy").split("\n")[:2] == ["False", "gpupy gpupy gpupy"]
    code = "import gpupy.cunumpy.xp as s; s.set_backend('gpupy'); print(s.xp.__name__)"
    assert _run(code).strip() == "gpupy"


def test_a_switch_never_moves_arrays(device_name):
    with xp.use_backend("gpupy"):
        g = xp.arange(3.0)
    h = xp.arange(3.0)
    assert isinstance(g, gpupy.ndarray) and str(g.device) == device_name
    assert isinstance(h, numpy.ndarray) and xp.to_numpy(g).tolist() == h.tolist()


def test_listeners_hear_every_switch_with_the_new_module():
    heard = []
    xp.array_backend.add_listener(heard.append)
    try:
        with xp.use_backend("gpupy"):
            pass
        xp.set_backend("numpy")  # no switch: already numpy
    finally:
        xp.array_backend._listeners.remove(heard.append)
    assert heard == [gpupy, numpy]


def test_same_backend_and_assert_same_backend(device_name):
    h, g = numpy.zeros(2), gpupy.zeros(2)
    assert xp.same_backend(h, numpy.ones(3)) and xp.same_backend(g, gpupy.ones(1))
    assert xp.same_backend() and xp.same_backend(h)
    assert not xp.same_backend(h, g)
    xp.assert_same_backend(g, gpupy.ones(3))
    with pytest.raises(TypeError, match=rf"argument 0: numpy, argument 1: gpupy \({device_name}\)"):
        xp.assert_same_backend(h, g)


@pytest.mark.parametrize(
    ("minimum", "ok"),
    [("0.0.1", True), ("0.1.0", True), ("0.1", True), ("0.2", False), ("1", False)],
)
def test_require_version_compares_numeric_parts(minimum, ok):
    assert xp.__version__ == "0.1.0"
    if ok:
        xp.require_version(minimum)
    else:
        with pytest.raises(ImportError, match=f"{minimum} or newer is required"):
            xp.require_version(minimum)


@pytest.mark.parametrize("minimum", ["", "abc", None, 0.2])
def test_require_version_refuses_what_is_no_version(minimum):
    with pytest.raises(ValueError, match=r"^\[require_version\] expected a version string"):
        xp.require_version(minimum)


@pytest.mark.parametrize(
    ("version", "warns"), [("13.6.0", True), ("14.0.0", False), ("14.0", False), ("15.1", False)]
)
def test_an_old_cupy_warns_when_first_checked(monkeypatch, version, warns):
    from gpupy.cunumpy import _backend

    fake = types.ModuleType("cupy")
    fake.__version__ = version
    fake.is_available = lambda: False  # never selected: only the check runs
    monkeypatch.setitem(sys.modules, "cupy", fake)
    monkeypatch.setattr(_backend, "_cupy_status", None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert xp.cupy_available() is False
        assert xp.cupy_available() is False  # cached: checked (and warned) once
    messages = [str(w.message) for w in caught]
    want = [f"CuPy {version} is older than 14.0.0, the oldest gpupy.cunumpy supports"]
    assert messages == (want if warns else []) and xp.MIN_CUPY_VERSION == "14.0.0"
    assert xp.get_backend() == "numpy"


def test_backend_info_keys(monkeypatch):
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "3")
    info = xp.backend_info()
    json.dumps(info)
    for key in ("backend", "cupy_available", "cuda_unavailable_reason", "versions", "device"):
        assert key in info
    assert info["cuda_visible_devices"] == "3" and info["backend"] == xp.get_backend()
    assert set(info["versions"]) >= {"cunumpy", "numpy", "cupy"}
    assert info["default_device"] == str(gpupy._core.default_device())
    if gpupy.cuda.is_available():
        assert info["device"]["name"] and len(info["device"]["compute_capability"]) == 2
    else:
        assert info["device"] is None and info["cuda_unavailable_reason"]


def test_default_float_dtype_follows_the_backend():
    assert xp.default_float_dtype() is numpy.float64
    with xp.use_backend("gpupy"):
        assert xp.default_float_dtype() == gpupy.float64


# 1.3 / 5: conversions and host code with device arguments


def test_host_call_copies_arguments_down_and_results_back(gpu):
    x = numpy.array([3.0, 1.0, 2.0])
    d = xp.to_cunumpy(x)

    def cumsum_and_clobber(a, scale):
        a[:] = -1.0  # host code writing its input: host_call does not copy arguments back
        return numpy.cumsum(x) * scale, len(a)

    with xp.count_transfers() as c:
        result, n = xp.host_call(cumsum_and_clobber, d, 2.0)
    assert n == 3 and xp.is_gpu(result)
    numpy.testing.assert_array_equal(xp.to_numpy(result), [6.0, 8.0, 12.0])
    numpy.testing.assert_array_equal(xp.to_numpy(d), x)
    assert (c.to_host, c.to_device, c.bytes_to_host) == (1, 1, 24)

    @xp.evaluate_on_host
    def sort(a):
        return numpy.sort(a)

    assert sort.__name__ == "sort" and xp.setup_on_host is xp.evaluate_on_host
    numpy.testing.assert_array_equal(xp.to_numpy(sort(d)), [1.0, 2.0, 3.0])
    with xp.use_backend("numpy"):
        assert sort(x) is not x and sort(x).tolist() == [1.0, 2.0, 3.0]


# 2.1: the C type table


def test_ctype_of_is_the_inverse_table():
    want = {
        "bool": "bool",
        "int8": "signed char",
        "uint8": "unsigned char",
        "int16": "short",
        "uint16": "unsigned short",
        "int32": "int",
        "uint32": "unsigned int",
        "int64": "long long",
        "uint64": "unsigned long long",
        "float32": "float",
        "float64": "double",
        "complex64": "complex<float>",
        "complex128": "complex<double>",
    }
    for dtype, ctype in want.items():
        assert xp.cuda.ctype_of(dtype) == ctype
        sig = xp.parse_cuda_signature(f"__global__ void k({ctype}* p) {{}}", "k")
        assert sig[0].dtype == numpy.dtype(dtype)
    for bad in ("datetime64[s]", "U3", object):
        with pytest.raises(ValueError, match=r"^\[ctype_of\] no C type for dtype"):
            xp.cuda.ctype_of(bad)
    include = xp.cuda.cuda_include_dir()
    assert isinstance(include, str)
    assert os.path.isfile(os.path.join(include, "cunumpy", "atomic.cuh"))
    assert xp.CudaKernel("__global__ void k() {}", "k").compile_options().count(f"-I{include}") == 1


# 2.3: argument checks


class _Foreign:
    """A foreign device array seen only through __cuda_array_interface__ (on the class)."""

    def __init__(self, owner, strides, offset=0):
        self._owner = owner  # keeps the memory alive
        self._cai = {
            "data": (owner._data_ptr + offset, False),
            "shape": (3,),
            "typestr": "<f8",
            "version": 3,
            "strides": strides,
        }

    __cuda_array_interface__ = property(lambda self: self._cai)


def test_view_strides_must_be_multiples_of_the_element_size(gpu):
    k = xp.CudaKernel("__global__ void k(Array1D<double> a) {}", "k")
    base = gpupy.zeros(8)
    assert len(k.prepare_args(_Foreign(base, (16,)))) == 1
    message = (
        r"^\[CudaKernel\] 'k' argument 0 .* strides \(12,\) are not multiples of the element size 8"
    )
    with pytest.raises(TypeError, match=message):
        k.prepare_args(_Foreign(base, (12,)))
    with pytest.raises(ValueError, match="must be 8-byte aligned, got address"):
        k.prepare_args(_Foreign(base, (16,), offset=4))


def test_scalar_casting_rules_of_the_spec():
    src = "__global__ void k(float f, complex<double> z, unsigned int u, bool b) {}"
    k = xp.CudaKernel(src, "k")

    def check(i, value):
        args = [1.0, 1j, 1, True]
        args[i] = value
        return k.prepare_args(*args)

    check(0, 3)  # Python int into float: cast
    check(0, numpy.int64(2**40))  # NumPy integer into a float parameter: by value
    check(1, 2.5)  # Python float into complex
    check(2, True)  # Python bool into unsigned
    check(2, numpy.int8(7))
    with pytest.raises(OverflowError, match=r"argument 2 \(unsigned int u\): -1 is out of range"):
        check(2, numpy.int8(-1))
    with pytest.raises(TypeError, match=r"argument 0 \(float f\) cannot take a value of type bool"):
        check(0, True)
    with pytest.raises(TypeError, match="cannot take a value of type complex"):
        check(0, 1j)
    with pytest.raises(TypeError, match="cannot take a float64 scalar without losing information"):
        check(0, numpy.float64(1.5))
    with pytest.raises(TypeError, match="cannot take a value of type list"):
        check(3, [1])


# 2.4: CudaKernel


COMPONENTS = r"""
__global__ void double_columns(Array2D<double> m) {
  long long j = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (j >= m.shape[1]) return;
  for (long long c = 0; c < m.shape[0]; ++c) m(c, j) *= 2.0;
}
"""


def test_n_threads_from_modes(gpu):
    host = numpy.arange(3 * 1000, dtype=numpy.float64).reshape(3, 1000)
    markers = xp.to_cunumpy(host)  # component-major (ncomp, N)
    auto = xp.CudaKernel(COMPONENTS, "double_columns")
    assert auto.launch_shape(args=(markers,)) == ((1,), (128,))  # shape[0] = 3
    first = xp.CudaKernel(COMPONENTS, "double_columns", n_threads_from="first_array")
    assert first.launch_shape(args=(markers,)) == ((1,), (128,))
    last = xp.CudaKernel(COMPONENTS, "double_columns", n_threads_from="last_axis")
    assert last.launch_shape(args=(markers,)) == ((8,), (128,))
    last(markers)  # one thread per particle: all 1000 columns
    numpy.testing.assert_array_equal(xp.to_numpy(markers), 2 * host)
    auto(markers)  # n_threads 3: one block of 128 threads, which the kernel does not bound
    want = 2 * host
    want[:, :128] *= 2
    numpy.testing.assert_array_equal(xp.to_numpy(markers), want)
    first.n_threads_from = lambda args: args[0].shape[1]
    first(markers)
    numpy.testing.assert_array_equal(xp.to_numpy(markers), 2 * want)


def test_compile_on_a_device_without_cuda_kernels_is_a_runtime_error():
    k = xp.CudaKernel("__global__ void k() {}", "k")
    with pytest.raises(RuntimeError, match="cannot compile CUDA kernel 'k': device cpu"):
        k.compile("cpu")
    assert not k.is_compiled or str(gpupy._core.default_device()) != "cpu"
