"""gpupy.cunumpy against spec/kernel-layer.md, continued from test_cunumpy_spec.py: host kernels,
struct values, atomics, transfer events and budgets, test helpers, troubleshooting, kernel folders
and DeviceMirror. Launches run on emu without a GPU, on cuda with one."""

import os
import sys
import types
import warnings

import numpy
import pytest
from gpupy import cunumpy as xp
from gpupy.cunumpy import kernel_testing as kt
from kernel_packages import SCALE_CUDA, SCALE_HOST, gpu_backend, write_package

gpu = gpu_backend  # the gpupy backend on emu (or cuda)


# 2.5 / 2.6: host kernels


def test_is_array_decides_which_results_go_to_the_device(gpu):
    d = xp.to_cunumpy(numpy.arange(3.0))

    def stats(a):
        return numpy.cumsum(a), numpy.array(a.sum()), {"max": numpy.max(a, keepdims=True)}

    total, zero_d, extra = xp.PyccelKernel(stats)(d)
    assert xp.is_gpu(total) and xp.is_gpu(zero_d)
    assert isinstance(extra["max"], numpy.ndarray)  # results inside dicts stay on the host
    total, zero_d, _ = xp.PyccelKernel(stats, is_array=lambda v: getattr(v, "ndim", 0) > 0)(d)
    assert xp.is_gpu(total) and isinstance(zero_d, numpy.ndarray) and zero_d == 3.0


def test_outputs_missing_a_written_argument_leave_stale_device_data(gpu):
    """The documented pitfall (spec 2.5 and 6): only declared outputs are copied back."""

    def fill(a, b):
        a[:] = 1.0
        b[:] = 2.0

    a, b = xp.to_cunumpy(numpy.zeros(2)), xp.to_cunumpy(numpy.zeros(2))
    xp.PyccelKernel(fill, outputs=(0,))(a, b)
    assert xp.to_numpy(a).tolist() == [1.0, 1.0] and xp.to_numpy(b).tolist() == [0.0, 0.0]
    xp.PyccelKernel(fill)(a, b)  # outputs=None: everything comes back
    assert xp.to_numpy(b).tolist() == [2.0, 2.0]


@pytest.fixture
def host_module():
    module = types.ModuleType("specaudit_host_kernels")

    def triple(x):
        return 3 * x

    module.triple = triple
    sys.modules[module.__name__] = module
    yield module
    del sys.modules[module.__name__]


def test_compiled_host_kernel_compiles_once(host_module):
    calls = []

    def compiler(module):
        calls.append(module)
        return types.SimpleNamespace(triple=lambda x: 30 * x)

    k = xp.CompiledHostKernel("specaudit_host_kernels", "triple", compiler)
    assert repr(k) == "CompiledHostKernel('triple', not built)" and k.module is host_module
    assert k(2) == 60 and k(3) == 90 and calls == [host_module]
    assert repr(k) == "CompiledHostKernel('triple', compiled)" and k.python(2) == 6


def test_compiled_host_kernel_failure_warns_once_and_falls_back(host_module):
    def broken(module):
        raise OSError("no compiler")

    k = xp.CompiledHostKernel(host_module, "triple", broken)
    with pytest.warns(RuntimeWarning, match="could not be compiled .*no compiler"):
        assert k(2) == 6
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert k(4) == 12 and k.build() is host_module.triple
    assert isinstance(k.error, OSError) and repr(k) == "CompiledHostKernel('triple', failed)"
    with_fallback = xp.CompiledHostKernel(host_module, "triple", broken, fallback=lambda x: -x)
    with pytest.warns(RuntimeWarning):
        assert with_fallback(5) == -5


def test_host_fallback_and_extra_implementations(tmp_path):
    def scale_numpy(x, f, n):
        x[:n] *= f

    def scale_numba(x, f, n):
        x[:n] *= f + 1

    pkg = write_package(tmp_path, {"scale": {"_kernels.py": SCALE_HOST}})
    catalog = xp.KernelCatalog.from_package(pkg, host_fallback={"scale": scale_numpy})
    extra = xp.Kernel.from_folder(
        f"{pkg}.scale", extra_implementations={"numba": lambda: scale_numba}
    )
    kernel = catalog["scale"]
    assert kernel.implementations == ("pyccel", "numpy", "python")
    assert extra.implementations == ("pyccel", "numba", "python")
    for k, impl, want in ((kernel, "numpy", 4.0), (extra, "numba", 6.0), (kernel, "python", 4.0)):
        x = numpy.full(3, 2.0)
        with xp.use_host_kernel_implementation(impl):
            assert k.selected() == impl
            k(x, 2.0, 3)
        assert x.tolist() == [want] * 3
    with xp.use_host_kernel_implementation("numba"), pytest.raises(LookupError, match="'numba'"):
        kernel(numpy.zeros(1), 1.0, 1)


# 2.8: structs from Pyccel classes


def test_from_pyccel_class_without_attribute_names():
    source = (
        "class Markers:\n"
        "    def __init__(self, positions: 'float[:]', n: 'int32'):\n"
        "        self.pos = positions\n"
        "        self.count = n\n"
    )
    named = xp.CudaStruct.from_pyccel_class(source, "Markers", "M")
    plain = xp.CudaStruct.from_pyccel_class(source, "Markers", attribute_names=False)
    assert (named.name, [p.name for p in named.fields]) == ("M", ["pos", "count"])
    assert (plain.name, [p.name for p in plain.fields]) == ("Markers", ["positions", "n"])
    assert named.dtype.itemsize == plain.dtype.itemsize == 32  # Array1D (24) + int, aligned


# 2.9: atomic.cuh

ATOMICS = r"""
#include <cunumpy/atomic.cuh>
#include "cunumpy/atomic.cuh"
#include <cunumpy/index.cuh>
template <class T>
__global__ void tickets(T* counter, T* old, long long n) {
  CUNUMPY_THREAD_1D(i, n);
  old[i] = cunumpy_atomic_add(counter, T(1));
}
__global__ void wrap(long long* x, long long v) { cunumpy_atomic_add(x, v); }
__global__ void grid3(double* g, long long n1, long long n2, const int* ijk, long long n) {
  CUNUMPY_THREAD_1D(i, n);
  cunumpy_atomic_add_3d(g, n1, n2, ijk[3 * i], ijk[3 * i + 1], ijk[3 * i + 2], 0.25);
}
"""


@pytest.mark.parametrize("dtype", [numpy.uint32, numpy.uint64, numpy.int64, numpy.float64])
def test_atomic_add_returns_the_old_value(gpu, dtype):
    n = 2000
    counter, old = xp.to_cunumpy(numpy.zeros(1, dtype)), xp.to_cunumpy(numpy.zeros(n, dtype))
    xp.CudaKernel(ATOMICS, "tickets", template_args=(dtype,))(counter, old, n, n_threads=n)
    assert xp.to_numpy(counter).tolist() == [n]
    numpy.testing.assert_array_equal(numpy.sort(xp.to_numpy(old)), numpy.arange(n, dtype=dtype))


def test_atomic_add_long_long_wraps_and_3d_offsets(gpu):
    top = numpy.iinfo(numpy.int64).max
    x = xp.to_cunumpy(numpy.array([top], numpy.int64))
    xp.CudaKernel(ATOMICS, "wrap")(x, 2, grid=1, block=1)  # one thread
    assert xp.to_numpy(x).tolist() == [numpy.iinfo(numpy.int64).min + 1]  # modulo 2^64
    ijk = numpy.random.default_rng(3).integers(0, (2, 3, 4), (700, 3)).astype(numpy.int32)
    g = xp.to_cunumpy(numpy.zeros((2, 3, 4)))
    xp.CudaKernel(ATOMICS, "grid3")(g, 3, 4, xp.to_cunumpy(ijk), 700, n_threads=700)
    want = numpy.zeros((2, 3, 4))
    numpy.add.at(want, tuple(ijk.T), 0.25)
    numpy.testing.assert_array_equal(xp.to_numpy(g), want)
    with open(os.path.join(xp.cuda.cuda_include_dir(), "cunumpy", "atomic.cuh")) as f:
        assert "#ifndef CUNUMPY_ATOMIC_CUH" in f.read()


# 2.10 / 2.11: transfer events and timing


def test_events_name_the_users_line_and_labels(gpu):
    d = xp.to_cunumpy(numpy.zeros(4))
    with xp.count_transfers() as c:
        xp.to_numpy(d)
        line = sys._getframe().f_lineno - 1
    (event,) = c.events
    assert event.where == f"{__file__}:{line}" and event.nbytes == 32
    assert event.description == "to_numpy(shape=(4,), dtype=float64)"
    assert str(event) == f"{__file__}:{line}: to_host: to_numpy(shape=(4,), dtype=float64)"
    marker = xp.TransferEvent("sync", "wait", "f.py:3", blocking=False, implicit=True)
    assert (
        marker.label == "wait [async] [implicit]" and str(marker) == "f.py:3: sync: " + marker.label
    )
    with pytest.raises(AttributeError):
        marker.kind = "to_host"  # frozen
    assert c.kernel_conversion_calls == c.kernel_conversions == 0


@pytest.mark.parametrize("backend", ["numpy", "gpupy"])
@pytest.mark.parametrize("sync", [True, False])
def test_timed_region_synchronizes_only_on_a_device_backend(backend, sync):
    with xp.use_backend(backend), xp.count_transfers() as c:
        with xp.timed_region("step", sync=sync) as t:
            assert t.elapsed is None and t.name == "step"
    on_device = backend == "gpupy" and sync
    assert t.synced is on_device and c.syncs == (2 if on_device else 0)
    assert t.elapsed >= 0.0


def test_timed_region_sets_elapsed_when_the_block_raises():
    with pytest.raises(KeyError), xp.timed_region("boom") as t:
        raise KeyError("x")
    assert t.elapsed is not None and t.elapsed >= 0.0


# 3.1: test helpers


def test_requires_cupy_is_the_device_marker():
    mark = kt.requires_cupy
    assert mark.name == "skipif" and mark.args == kt.requires_device_backend.args
    assert kt.BACKENDS[0] == "numpy" and kt.BACKENDS[1].values == (kt.DEVICE_BACKEND,)
    assert kt.TEST_ARGS_SETTINGS["N_CALLS"] == "n_calls" and len(kt.TEST_ARGS_SETTINGS) == 8


def test_assert_kernels_agree_needs_the_same_array_arguments():
    def scale(x, f, n):
        x[:n] *= f

    cuda = xp.CudaKernel(
        "__global__ void scale(double* x, double f, long long n) {"
        " long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; if (i < n) x[i] *= f; }",
        "scale",
    )

    def make_args(backend, seed):
        x = numpy.arange(4.0)
        if backend == "numpy":
            return numpy.arange(4.0), numpy.array(2.0), 4  # a 0-d array is an array argument
        return xp.to_cunumpy(x), 2.0, 4

    kernel = xp.Kernel(scale, cuda)
    if not kt.device_backend_available():
        pytest.skip("no device runs CUDA kernels")
    with pytest.raises(AssertionError, match="do not have the same array arguments"):
        kt.assert_kernels_agree(kernel, make_args, n_threads=4)
    got = kt.assert_kernels_agree(
        kernel, lambda b, s: (xp.to_cunumpy(numpy.arange(4.0)), 2.0, 4), n_threads=4, n_calls=2
    )
    assert list(got) == ["argument 0"] and got["argument 0"].tolist() == [0.0, 4.0, 8.0, 12.0]


# 6: troubleshooting, as the spec states it


TROUBLE = r"""
__global__ void add(double* y, const int* idx, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) y[i] += idx[i];
}
__global__ void add_rows(Array2D<double> y, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) y(i, 0) += 1.0;
}
__global__ void small(double* y, int n) {}
"""


def test_troubleshooting_kernel_type_errors_and_their_fixes(gpu):
    add = xp.CudaKernel(TROUBLE, "add")
    y, idx = numpy.zeros(4), numpy.arange(4, dtype=numpy.int64)
    with pytest.raises(TypeError, match=r"argument 0 \(double\* y\) must be a device array"):
        add(y, idx, 4, n_threads=4)
    dy = xp.as_device_array(y, numpy.float64)
    with pytest.raises(
        TypeError, match=r"argument 1 \(int\* idx\) must have dtype int32, got int64"
    ):
        add(dy, xp.to_cunumpy(idx), 4, n_threads=4)
    add(dy, xp.as_device_array(idx, numpy.int32), 4, n_threads=4)  # fix: one checked copy
    assert xp.to_numpy(dy).tolist() == [0.0, 1.0, 2.0, 3.0]
    table = xp.to_cunumpy(numpy.zeros((4, 3)))
    with pytest.raises(TypeError, match=r"argument 0 \(double\* y\) must be C-contiguous"):
        add(table[:, 0], xp.as_device_array(idx, numpy.int32), 4, n_threads=4)
    xp.CudaKernel(TROUBLE, "add_rows")(table, 4, n_threads=4)  # fix: an Array2D<T> parameter
    want = numpy.zeros((4, 3))
    want[:, 0] = 1.0
    numpy.testing.assert_array_equal(xp.to_numpy(table), want)
    with pytest.raises(OverflowError, match=r"argument 1 \(int n\): 2147483648 is out of range"):
        xp.CudaKernel(TROUBLE, "small")(dy, 2**31, n_threads=0)


# 2.6 / 3.1: kernel folders and test-argument modules


ANNOTATED_HOST = """
from typing import Final


def axpy(y: "float[:]", x: "Final[float[:]]", a: float, n: int):
    for i in range(n):
        y[i] += a * x[i]
"""


def test_from_folder_outputs_from_annotations(tmp_path, gpu):
    pkg = write_package(tmp_path, {"axpy": {"_kernels.py": ANNOTATED_HOST}})
    kernel = xp.Kernel.from_folder(f"{pkg}.axpy", outputs="annotations", missing_cuda="fallback")
    assert kernel.host_kernel.outputs == ("y",)
    y, x = xp.to_cunumpy(numpy.ones(3)), xp.to_cunumpy(numpy.arange(3.0))
    with pytest.warns(RuntimeWarning, match="No CUDA version"), xp.count_transfers() as c:
        kernel(y, x, 2.0, 3)
    assert xp.to_numpy(y).tolist() == [1.0, 3.0, 5.0] and c.to_device == 1  # y only
    with pytest.raises(ValueError, match="outputs must be indices, names or 'annotations'"):
        xp.Kernel.from_folder(f"{pkg}.axpy", outputs="annotation")


def test_check_parity_needs_a_test_args_module_with_make_args(tmp_path):
    pkg = write_package(
        tmp_path,
        {
            "scale": {"_kernels.py": SCALE_HOST, "_cuda.cu": SCALE_CUDA},
            "shift": {
                "_kernels.py": SCALE_HOST.replace("scale", "shift"),
                "_cuda.cu": SCALE_CUDA.replace("scale", "shift"),
                "_test_args.py": "N_THREADS = 1000\n",
            },
        },
    )
    catalog = xp.KernelCatalog.from_package(pkg)
    with pytest.raises(ValueError, match="kernel 'scale' has no test-arguments module"):
        kt.check_parity(catalog["scale"])
    with pytest.raises(TypeError, match="must define a callable make_args"):
        kt.check_parity(catalog["shift"])
    (case_scale, case_shift) = kt.parity_cases(catalog)
    assert [m.name for m in case_scale.marks] == ["skip"] and case_shift.marks == ()


# 2.8: struct values and argument classes


def test_struct_values_keep_their_fields_and_subclasses_inherit_the_struct(gpu):
    point = xp.CudaStruct("Pt", [("x", "double*"), ("n", "int")])
    x = xp.to_cunumpy(numpy.zeros(2))
    value = point(x=x, n=2)
    assert value["x"] is x and value["n"] == 2 and value.struct is point
    assert value.__cuda_args__() == (value.packed,) and value.packed["n"] == 2

    class Base(xp.CudaStructArguments):
        struct_name = "Markers"
        fields = [("x", "double*"), ("n", "long long")]

        def __init__(self, x):
            self.x, self.n = x, len(x)

    class Child(Base):
        pass

    assert Child.struct is Base.struct and Child(x).packed["n"] == 2


def test_from_signature_int_type_and_dimension_limit():
    def kernel(a: "float[:]", n: int):
        pass

    s = xp.CudaStruct.from_signature(kernel, "K", int_type="int")
    assert [p.ctype for p in s.fields] == ["Array1D<double>", "int"]
    dims = ", ".join([":"] * 17)
    code = f"def deep(a: 'float[{dims}]'):\n    pass\n"
    namespace = {}
    exec(code, namespace)  # noqa: S102 - a 17-dimensional annotation, built for the test
    with pytest.raises(ValueError, match="at most 16 dimensions"):
        xp.CudaStruct.from_signature(namespace["deep"], "D")


# 2.10: transfer budgets


def test_transfer_budget_total_bytes_and_ignored_kinds():
    from gpupy.cunumpy import profiling

    budget = xp.TransferBudget()
    try:
        with budget.phase("out"):
            for _ in range(3):
                profiling.record("to_host", "e", 400)
            profiling.record("device_copy", "c", 10)
    finally:
        budget.stop()
    budget.require("out", {"to_host": {"max_total_bytes": 1200}})
    budget.check()
    budget.require("out", {"to_host": {"max_total_bytes": 1000}})
    assert budget.violations() == ["out: 1200 to_host bytes, at most 1000"]
    budget.require("out", {"to_host": 3}, ignore=())
    assert budget.violations() == [
        "out: 1 device_copy event(s), none allowed (" + str(budget["out"].events[-1]) + ")"
    ]


# 2.4: a failed compilation is not cached


def test_a_failed_compile_can_be_retried(tmp_path, gpu):
    header = tmp_path / "value.cuh"
    header.write_text("#define VALUE (1.5 +)\n")  # a syntax error
    source = '#include "value.cuh"\n__global__ void put(double* y) { y[0] = VALUE; }\n'
    k = xp.CudaKernel(source, "put", include_dirs=[tmp_path])
    y = xp.to_cunumpy(numpy.zeros(1))
    with pytest.raises(RuntimeError):
        k(y, grid=1, block=1)
    assert not k.is_compiled
    header.write_text("#define VALUE 2.5\n")
    k(y, grid=1, block=1)
    assert k.is_compiled and xp.to_numpy(y).tolist() == [2.5]


# 2.9: DeviceMirror


class _Producer:
    """A stream or event stand-in: records that to_host waited for it."""

    def __init__(self):
        self.waited = 0

    def synchronize(self):
        self.waited += 1


def test_mirror_rebind_keeps_the_device_buffer_and_to_host_waits(gpu):
    host = numpy.arange(4.0)
    m = xp.DeviceMirror(host)
    device = m.device
    assert m.device is device and xp.to_numpy(device).tolist() == [0.0, 1.0, 2.0, 3.0]
    new_host = numpy.full(4, 9.0)
    assert m.rebind(new_host) is m and m.host is new_host
    assert m.device is device and xp.to_numpy(device).tolist() == [0.0, 1.0, 2.0, 3.0]
    stream, event = _Producer(), _Producer()
    m.to_host(stream=stream)
    assert stream.waited == 1 and new_host.tolist() == [0.0, 1.0, 2.0, 3.0]
    device[...] = 5.0
    m.to_host(event=event)
    assert event.waited == 1 and m.host is new_host and new_host.tolist() == [5.0] * 4
    m.rebind(numpy.zeros(3))  # another shape: the device buffer goes
    assert "not allocated" in repr(m) and xp.to_numpy(m.device).tolist() == [0.0] * 3


def test_check_signature_compares_a_compiled_host_kernels_fallback(host_module):
    def compiler(module):
        raise OSError("not now")

    def fallback(y):
        return 3 * y

    good = xp.Kernel(
        xp.CompiledHostKernel(host_module, "triple", compiler, fallback=host_module.triple)
    )
    good.check_signature()
    bad = xp.Kernel(xp.CompiledHostKernel(host_module, "triple", compiler, fallback=fallback))
    with pytest.raises(ValueError, match=r"the host kernel takes \(x\), its fallback \(y\)"):
        bad.check_signature()
