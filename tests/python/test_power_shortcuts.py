"""NumPy's shortcuts for powers with one exponent: float32/float64 power loops compute x**2,
x**0.5, x**-1 and x**1 as square, sqrt, reciprocal and copy (so (-0.0)**0.5 is -0.0 and
(-inf)**0.5 is nan, where pow gives 0.0 and inf), and the ** operator does the same for 2 and
0.5 on every float and complex dtype. Compared with NumPy bit for bit, signs of zeros included."""

import gpupy
import numpy
import pytest

SPECIAL = [-0.0, -numpy.inf, 4.0, -4.0, numpy.inf, 0.0, numpy.nan, 3.0, 1e-300, 0.1]
EXPONENTS = [0.5, 2.0, 2, -1, -1.0, 1.0, 1, 0.0, 3.0, -0.5, numpy.float32(0.5), numpy.float64(2)]
FLOATS = ["float16", "float32", "float64", "complex64", "complex128"]


def _same(expected, got):
    assert got.dtype == expected.dtype
    numpy.testing.assert_array_equal(got, expected)
    if expected.dtype.kind in "fc":
        numpy.testing.assert_array_equal(numpy.signbit(got.real), numpy.signbit(expected.real))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("exponent", EXPONENTS, ids=repr)
def test_power_and_operator_match_numpy(dtype, exponent):
    x = numpy.array(SPECIAL).astype(dtype)
    g = gpupy.asarray(x)
    with numpy.errstate(all="ignore"):
        _same(numpy.power(x, exponent), gpupy.power(g, exponent).get())
        _same(x**exponent, (g**exponent).get())
        y = x.copy()
        y **= exponent
    h = gpupy.asarray(x)
    h **= exponent
    _same(y, h.get())


def test_integer_bases_use_the_float_loop():
    x = numpy.array([0, 1, 4, 9], dtype="int16")
    _same(numpy.power(x, 0.5), gpupy.power(gpupy.asarray(x), 0.5).get())
    _same(x**0.5, (gpupy.asarray(x) ** 0.5).get())
    _same(x**2, (gpupy.asarray(x) ** 2).get())


def test_out_and_array_exponents():
    x = numpy.array(SPECIAL)
    out = gpupy.empty(len(SPECIAL), dtype="float64")
    gpupy.power(gpupy.asarray(x), 0.5, out=out)
    with numpy.errstate(all="ignore"):
        _same(numpy.power(x, 0.5), out.get())
        # An exponent array of its own is computed by pow, in NumPy and gpupy alike.
        e = numpy.full(len(SPECIAL), 0.5)
        _same(numpy.power(x, e), gpupy.power(gpupy.asarray(x), gpupy.asarray(e)).get())


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_reciprocal_special_values(dtype):
    # NumPy's reciprocal loop: 0 gives nan+nanj, -inf gives -0-0j, real z gives a -0 imaginary part.
    values = [-0.0, -numpy.inf, 4.0, numpy.inf, 0.0, 1j * numpy.inf, numpy.nan, 1e-320, 3 + 4j]
    values += [complex(numpy.inf, numpy.inf), -2 - 1e-30j, 1e300 + 1e300j]
    with numpy.errstate(all="ignore"):  # 1e300 overflows complex64
        x = numpy.array(values).astype(dtype)
        _same(numpy.reciprocal(x), gpupy.reciprocal(gpupy.asarray(x)).get())
