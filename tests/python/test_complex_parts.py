"""ndarray.real / ndarray.imag and gpupy.real / gpupy.imag: views of a complex array's memory
(writes reach the array), the array itself or read-only zeros for other dtypes, and the
setters, against NumPy on the device under test."""

import gpupy
import numpy
import pytest


def _complex(dtype, shape=(3, 4)):
    n = numpy.prod(shape)
    values = numpy.arange(n) + 1j * (numpy.arange(n) - 5.5)
    return values.reshape(shape).astype(dtype)


LAYOUTS = {
    "c": lambda x: x,
    "transposed": lambda x: x.T,
    "sliced": lambda x: x[::2, ::-1],
    "0-d": lambda x: x[1, 2, ...],
    "empty": lambda x: x[:0],
}


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("part", ["real", "imag"])
def test_parts_of_a_complex_array_are_views_written_through(dtype, layout, part):
    host = _complex(dtype)
    dev = gpupy.asarray(host.copy())
    h_view = getattr(LAYOUTS[layout](host), part)
    d_view = getattr(LAYOUTS[layout](dev), part)
    assert d_view.dtype == h_view.dtype
    assert d_view.shape == h_view.shape
    assert d_view.strides == h_view.strides
    numpy.testing.assert_array_equal(d_view.get(), h_view)
    # A write through the view changes the complex array's elements, as NumPy's does.
    h_view[...] = -7
    d_view[...] = -7
    numpy.testing.assert_array_equal(dev.get(), host)


@pytest.mark.parametrize("part", ["real", "imag"])
def test_module_functions_return_the_same_views(part):
    host = _complex("complex128")
    dev = gpupy.asarray(host.copy())
    getattr(numpy, part)(host)[0] = 42
    getattr(gpupy, part)(dev)[0] = 42
    numpy.testing.assert_array_equal(dev.get(), host)
    # Lists and scalars are converted first, as numpy.real(list) does.
    numpy.testing.assert_array_equal(
        getattr(gpupy, part)([1 + 2j, 3 - 4j]).get(), getattr(numpy, part)([1 + 2j, 3 - 4j])
    )


@pytest.mark.parametrize("dtype", ["float32", "int64", "bool", "float16"])
def test_real_of_a_real_array_is_the_array_and_imag_read_only_zeros(dtype):
    host = numpy.arange(6).astype(dtype)
    dev = gpupy.asarray(host)
    assert dev.real is dev
    assert gpupy.real(dev) is dev
    h_imag, d_imag = host.imag, dev.imag
    assert d_imag.dtype == h_imag.dtype
    numpy.testing.assert_array_equal(d_imag.get(), h_imag)
    assert d_imag.flags.writeable == h_imag.flags.writeable  # False in NumPy
    with pytest.raises(ValueError):
        d_imag[0] = 1
    numpy.testing.assert_array_equal(gpupy.imag(dev).get(), numpy.imag(host))


def test_setters():
    host = _complex("complex64")
    dev = gpupy.asarray(host.copy())
    host.real = numpy.arange(4)
    dev.real = gpupy.arange(4)
    host.imag = 2.5
    dev.imag = 2.5
    numpy.testing.assert_array_equal(dev.get(), host)
    real_host, real_dev = numpy.arange(3.0), gpupy.arange(3.0)
    real_host.real = 9
    real_dev.real = 9
    numpy.testing.assert_array_equal(real_dev.get(), real_host)
    with pytest.raises(TypeError, match="imaginary part"):
        real_host.imag = 1
    with pytest.raises(TypeError, match=r"\[imag\] array does not have imaginary part"):
        real_dev.imag = 1


def test_parts_of_a_read_only_array_are_read_only():
    dev = gpupy.asarray(_complex("complex128"))
    dev.flags.writeable = False
    assert not dev.real.flags.writeable
    assert not dev.imag.flags.writeable
    with pytest.raises(ValueError):
        dev.real[0] = 1
