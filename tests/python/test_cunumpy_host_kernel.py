"""gpupy.cunumpy.PyccelKernel: host kernels (Python, Numba, Pyccel) called with device arrays
through recorded host copies."""

import gpupy
import numpy
import pytest
from gpupy import cunumpy as xp
from gpupy.cunumpy.host_kernel import outputs_from_annotations
from host_compilers import pyccel_module

SCALE_SOURCE = """
def scale(x : 'float[:]', f : float, n : int):
    for i in range(n):
        x[i] = f * x[i]
"""


def scale(x: "float[:]", f: float, n: int):
    for i in range(n):
        x[i] = f * x[i]


def axpy(y, x, a):
    y += a * x
    return y.sum(), x * 2


@pytest.fixture
def dev(device_name):
    if device_name == "cpu":
        pytest.skip("device arrays need --device=emu or cuda")
    return device_name


def _numba_scale():
    numba = pytest.importorskip("numba")
    return numba.njit(scale)


def _pyccel_scale():
    return pyccel_module(SCALE_SOURCE, "scale_kernels").scale


@pytest.mark.parametrize("make", [lambda: scale, _numba_scale, _pyccel_scale])
def test_host_kernels_run_on_device_arrays(dev, make):
    k = xp.PyccelKernel(make())
    x = gpupy.asarray(numpy.arange(5.0))
    with xp.count_transfers() as c:
        k(x, 3.0, 5)
    numpy.testing.assert_array_equal(gpupy.asnumpy(x), 3.0 * numpy.arange(5.0))
    assert (c.to_host, c.to_device, c.kernel_conversions) == (1, 1, 1)
    assert c.events[1].description == "PyccelKernel 'scale': 1 device array(s) copied to the host"
    assert c.bytes_to_host == c.bytes_to_device == 40


def test_numpy_arguments_are_passed_through():
    k = xp.PyccelKernel(axpy)
    y, x = numpy.zeros(3), numpy.ones(3)
    with xp.assert_no_transfers():
        total, twice = k(y, x, 2.0)
    assert total == 6.0 and isinstance(twice, numpy.ndarray)
    assert xp.PyccelKernel(lambda: 7, use_cupy=True)() == 7


def test_outputs_aliasing_and_results(dev):
    k = xp.PyccelKernel(axpy, outputs=("y",))
    y, x = gpupy.zeros(3), gpupy.ones(3)
    with xp.count_transfers() as c:
        total, twice = k(y, x, a=2.0)
    assert total == 6.0 and isinstance(twice, gpupy.ndarray) and str(twice.device) == dev
    numpy.testing.assert_array_equal(gpupy.asnumpy(y), [2.0, 2.0, 2.0])
    assert (c.to_host, c.to_device) == (2, 2)  # y back, plus the returned array
    # One array reached twice is one host copy: writes through either name are kept.
    with xp.count_transfers() as c:
        xp.PyccelKernel(axpy)(y, y, 1.0)
    numpy.testing.assert_array_equal(gpupy.asnumpy(y), [4.0, 4.0, 4.0])
    assert c.to_host == 1


def test_containers_and_object_modules(dev):
    class Particles:
        pass

    Particles.__module__ = "mysim.particles"

    def kick(p, extra):
        p.v += 1.0
        extra["w"][:] = 5.0
        extra["loop"] is extra  # noqa: B015 - cycles must terminate

    p = Particles()
    p.v = gpupy.zeros(2)
    extra = {"w": gpupy.zeros(2)}
    extra["loop"] = extra
    xp.PyccelKernel(kick, object_modules=("mysim",))(p, extra)
    assert isinstance(p.v, gpupy.ndarray)  # the caller's object keeps its device array
    numpy.testing.assert_array_equal(gpupy.asnumpy(p.v), [1.0, 1.0])
    numpy.testing.assert_array_equal(gpupy.asnumpy(extra["w"]), [5.0, 5.0])


def test_outputs_declarations_are_checked():
    with pytest.raises(TypeError, match=r"did you mean outputs=\(5,\)\?"):
        xp.PyccelKernel(axpy, outputs=5)
    with pytest.raises(TypeError, match="ints or strings"):
        xp.PyccelKernel(axpy, outputs=(True,))
    host = numpy.zeros(1)

    def boom(*a, **kw):
        raise RuntimeError("kernel ran")

    with pytest.raises(IndexError, match="by name"):
        xp.PyccelKernel(boom, outputs=(3,), use_cupy=True)(host)
    with pytest.raises(KeyError, match="by index"):
        xp.PyccelKernel(boom, outputs=("y",), use_cupy=True)(host)
    named = xp.PyccelKernel(boom, outputs=("y", 1), use_cupy=True, parameters=["x", "y"])
    with pytest.raises(RuntimeError, match="kernel ran"):
        named(host, y=host)


def test_outputs_from_annotations():
    from typing import Final

    def f(x: "float[:]", c: "const float[:]", n: int, g: Final[float], u):  # noqa: F722
        pass

    assert outputs_from_annotations(f) == ("x", "u")
    assert outputs_from_annotations(axpy) is None
    assert outputs_from_annotations(len) is None


def test_pyccel_parameters_from_stub():
    from gpupy.cunumpy.host_kernel import python_parameters

    compiled = _pyccel_scale()
    assert python_parameters(compiled) == ["x", "f", "n"]
    assert xp.PyccelKernel(compiled).parameter_names() == ["x", "f", "n"]


def _layout_probe(x):
    """Records the host copy's layout and writes its first column (layout-independent)."""
    x[:, 0] = 10.0 * x.flags.f_contiguous + x.flags.c_contiguous


@pytest.mark.parametrize("fortran", [False, True])
def test_host_copies_keep_fortran_order(dev, fortran):
    # The kernel-layer spec: F-contiguous device arrays stay F-ordered through the host copy
    # (Pyccel's order='F' arrays are checked by the compiled wrapper); other layouts become C.
    host = numpy.arange(12.0).reshape(3, 4)
    x = gpupy.asarray(numpy.asfortranarray(host) if fortran else host)
    assert x.flags.f_contiguous == fortran
    xp.PyccelKernel(_layout_probe)(x)
    expected = host.copy()
    expected[:, 0] = 10.0 if fortran else 1.0
    numpy.testing.assert_array_equal(gpupy.asnumpy(x), expected)
    assert xp.to_numpy(x).flags.f_contiguous == fortran
