"""exp, exp2 (float32) and floor, ceil, trunc, rint (float32, float64) on the host devices against
the C library's functions, bit for bit.

The cpu device computes these with vector loops that must return exactly what the scalar library
call returns (what emu returns, and what the cpu device returned before the loops existed). The
exp inputs include the values whose results lie closest to a float32 rounding midpoint, where the
loops hand the element to the library; every case also runs strided and in place."""

import ctypes
import ctypes.util
import platform

import gpupy
import numpy
import pytest

_EXP = {"exp": numpy.exp, "exp2": numpy.exp2}
_ROUNDING = ["floor", "ceil", "trunc", "rint"]
_CTYPES = {
    numpy.float32: ("f", ctypes.c_float, numpy.uint32),
    numpy.float64: ("", ctypes.c_double, numpy.uint64),
}


@pytest.fixture(autouse=True)
def _host_libm(device_name):
    if device_name == "cuda":
        pytest.skip("the cuda device computes with CUDA's math library, not the C library")
    if platform.libc_ver()[0] != "glibc":
        pytest.skip("the reference is glibc's libm")


def _library(name, dtype):
    suffix, ctype, _ = _CTYPES[dtype]
    fn = getattr(ctypes.CDLL(ctypes.util.find_library("m")), name + suffix)
    fn.restype, fn.argtypes = ctype, [ctype]
    return lambda xs: numpy.array([fn(x) for x in xs.tolist()], dtype=dtype)


def _near_midpoints(reference, rng, count):
    """Inputs whose exact result lies within 0.02 float32 ulp of a rounding midpoint."""
    x = rng.uniform(-100, 100, 400_000).astype(numpy.float32)
    with numpy.errstate(over="ignore"):
        exact = reference(x.astype(numpy.float64))  # float64: far finer than the float32 ulp
        rounded = exact.astype(numpy.float32)
    ok = numpy.isfinite(rounded) & (numpy.abs(rounded) >= numpy.finfo(numpy.float32).tiny)
    ulp = numpy.spacing(rounded[ok]).astype(numpy.float64)
    frac = (exact[ok] - rounded[ok].astype(numpy.float64)) / ulp
    near = numpy.abs(numpy.abs(frac) - 0.5) < 0.02
    return x[ok][near][:count]


def _inputs(dtype, reference=None):
    rng = numpy.random.default_rng(7)
    f32, uint = numpy.float32, _CTYPES[dtype][2]
    edges = [0.0, 1.0, 0.5, 2.0, 10.0, 64.0, 88.0, 88.72283, 88.72284, 89.0, 100.0, 87.33654]
    edges += [87.33655, 103.97, 103.98, 126.0, 127.0, 127.99999, 128.0, 149.0, 150.0, 1e-8, 1e-40]
    edges += [1e30, 3.4e38]
    special = numpy.array(edges, dtype=f32)
    special = numpy.concatenate([special, -special, numpy.nextafter(special, f32(numpy.inf))])
    special = numpy.concatenate([special, numpy.nextafter(special, f32(-numpy.inf))])
    special = numpy.concatenate([special, numpy.array([numpy.inf, -numpy.inf, numpy.nan], f32)])
    parts = [
        special.astype(dtype),
        rng.uniform(-110, 110, 20_000).astype(dtype),
        (rng.standard_normal(5_000) * 2.0 ** rng.integers(-30, 60, 5_000)).astype(dtype),
        rng.integers(0, 2**63, 20_001, dtype=numpy.uint64).astype(uint).view(dtype),
    ]
    if reference is not None:
        parts.append(_near_midpoints(reference, rng, 5_000))
    return numpy.concatenate(parts)


def _assert_same_bits(result, expected, inputs):
    nan = numpy.isnan(expected)
    assert numpy.array_equal(numpy.isnan(result), nan)
    x, r, e = inputs[~nan], result[~nan], expected[~nan]
    uint = _CTYPES[expected.dtype.type][2]
    bad = numpy.flatnonzero(r.view(uint) != e.view(uint))[:5]
    assert bad.size == 0, f"inputs {x[bad]}: gpupy {r[bad]}, C library {e[bad]}"


def _check(name, x):
    expected = _library(name, x.dtype.type)(x)
    ufunc = getattr(gpupy, name)
    _assert_same_bits(gpupy.asnumpy(ufunc(gpupy.asarray(x))), expected, x)
    # A strided view takes the scalar loop on cpu; in place, the vector loop reads what it writes.
    _assert_same_bits(gpupy.asnumpy(ufunc(gpupy.asarray(x)[::3])), expected[::3], x[::3])
    inplace = gpupy.asarray(x)
    ufunc(inplace, out=inplace)
    _assert_same_bits(gpupy.asnumpy(inplace), expected, x)


@pytest.mark.parametrize("name", sorted(_EXP))
def test_exp_float32_equals_c_library(name):
    x = _inputs(numpy.float32, _EXP[name])
    assert x.size > 50_000  # the midpoint search found its cases
    _check(name, x)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
@pytest.mark.parametrize("name", _ROUNDING)
def test_rounding_equals_c_library(name, dtype):
    halves = numpy.arange(-2000, 2000, dtype=dtype) + dtype(0.5)  # rint's ties go to even
    x = numpy.concatenate([_inputs(dtype), halves])
    _check(name, x)


def test_midpoint_cases_are_found():
    # Guards the test above: without near-midpoint inputs it would not reach the library fallback.
    x = _near_midpoints(numpy.exp, numpy.random.default_rng(7), 5_000)
    assert x.size == 5_000
