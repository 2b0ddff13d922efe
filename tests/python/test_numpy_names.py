"""NumPy's constants, type tables and type namespaces under gpupy: euler_gamma, little_endian,
typecodes, ScalarType, gpupy.exceptions (the classes gpupy raises, NumPy's own), gpupy.dtypes
and flatiter, each compared with NumPy's."""

import sys

import gpupy
import numpy
import pytest


def test_constants_are_numpys():
    assert gpupy.euler_gamma == numpy.euler_gamma
    assert abs(gpupy.euler_gamma - 0.57721566490153286) < 1e-16  # Euler-Mascheroni constant
    assert gpupy.little_endian is numpy.little_endian is (sys.byteorder == "little")
    assert gpupy.typecodes == numpy.typecodes and gpupy.ScalarType == numpy.ScalarType
    a = gpupy.ones(3, dtype="float32")
    assert a.dtype.char in gpupy.typecodes["Float"] and isinstance(a[0].item(), gpupy.ScalarType)
    assert gpupy.asarray([1, 2]).dtype.char in gpupy.typecodes["AllInteger"]


def test_exceptions_are_numpys_classes():
    for name in (*numpy.exceptions.__all__, "RankWarning"):
        assert getattr(gpupy.exceptions, name) is getattr(numpy.exceptions, name)
    assert sorted(gpupy.exceptions.__all__) == sorted({*numpy.exceptions.__all__, "RankWarning"})


def test_gpupy_raises_the_exceptions_numpy_raises(device_name):
    ones = numpy.ones((2, 2))
    with pytest.raises(numpy.exceptions.AxisError):
        numpy.sum(ones, axis=2)
    with pytest.raises(gpupy.exceptions.AxisError, match=r"^\[sum\] axis 2"):
        gpupy.sum(gpupy.asarray(ones, device=device_name), axis=2)
    z = numpy.array([1 + 1j, 2])
    with pytest.warns(numpy.exceptions.ComplexWarning):
        z.astype(numpy.float64)
    with pytest.warns(gpupy.exceptions.ComplexWarning):
        gpupy.asarray(z, device=device_name).astype(numpy.float64)
    x, y = numpy.ones(3), numpy.arange(3.0)
    with pytest.warns(numpy.exceptions.RankWarning):
        numpy.polyfit(x, y, 2)
    with pytest.warns(gpupy.exceptions.RankWarning):
        gpupy.polyfit(gpupy.asarray(x, device=device_name), gpupy.asarray(y, device=device_name), 2)


def test_dtypes_are_numpys_classes_of_gpupy_dtypes(device_name):
    held = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"}
    held |= {"float16", "float32", "float64", "complex64", "complex128"}
    names = [n for n in numpy.dtypes.__all__ if n in gpupy.dtypes.__all__]
    assert names == gpupy.dtypes.__all__
    for name in gpupy.dtypes.__all__:
        cls = getattr(gpupy.dtypes, name)
        assert cls is getattr(numpy.dtypes, name) and numpy.dtype(cls()).name in held
        a = gpupy.zeros(2, dtype=cls(), device=device_name)
        assert isinstance(a.dtype, cls) or a.dtype == cls()
    for absent in ("LongDoubleDType", "StrDType", "BytesDType", "ObjectDType", "DateTime64DType"):
        assert not hasattr(gpupy.dtypes, absent)
    covered = {numpy.dtype(getattr(gpupy.dtypes, n)()).name for n in gpupy.dtypes.__all__}
    assert covered == held
    assert isinstance(gpupy.arange(3.0, device=device_name).dtype, gpupy.dtypes.Float64DType)


def test_flatiter_is_the_type_of_flat(device_name):
    a = gpupy.arange(6, device=device_name).reshape(2, 3)
    assert type(a.flat) is gpupy.flatiter and type(numpy.arange(6).flat) is numpy.flatiter
    it, ref = a.T.flat, numpy.arange(6).reshape(2, 3).T.flat
    assert it.base.shape == ref.base.shape == (3, 2) and len(it) == len(ref) == 6
    numpy.testing.assert_array_equal(it[1:4].get(), ref[1:4])
