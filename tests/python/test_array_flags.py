"""ndarray.setflags and ndarray.byteswap against NumPy on the selected device."""

import gpupy
import numpy
import pytest
from gpupy import testing
from test_statistics import _data


@pytest.mark.parametrize(
    "dtype", ["bool", "int8", "uint16", "int32", "uint64", "float32", "float64", "complex64"]
)
def test_byteswap_values(dtype):
    a = _data((3, 4), dtype)

    @testing.numpy_gpupy_allclose()
    def body(xp):
        x = xp.asarray(a)
        # Compare the bytes: swapped floats can be NaNs, which compare unequal.
        raw = [
            x.byteswap(),
            x[:, ::-2].byteswap(),
            x.T.byteswap(),
            x[1, 2].byteswap(),
            x[:0].byteswap(),
            x.byteswap().byteswap(),
        ]
        return [xp.ascontiguousarray(r).reshape(-1).view("uint8") for r in raw]

    body()


def test_byteswap_complex128_and_copy():
    h = numpy.array([1.5 - 2j, 3e-300 + 7j, -0.0 + 1j])
    x = gpupy.asarray(h)
    testing.assert_same(h.byteswap().view("uint8"), x.byteswap().view("uint8"))
    y = x.byteswap()
    y[0] = 0
    testing.assert_same(h, x)  # a new array, not a view
    b = gpupy.asarray([True, False])
    c = b.byteswap()
    c[0] = False
    assert bool(b[0])


@pytest.mark.parametrize("dtype", ["int16", "float64", "complex128"])
def test_byteswap_inplace(dtype):
    h = _data((2, 5), dtype)
    x = gpupy.asarray(h.copy())  # on cpu, asarray would share h's memory
    view = x[:, 1::2]
    out = view.byteswap(inplace=True)
    assert out is view
    expected = h.copy()
    expected[:, 1::2].byteswap(inplace=True)
    testing.assert_same(expected.view("uint8"), x.view("uint8"))
    assert x.byteswap(True) is x


def test_byteswap_errors():
    x = gpupy.broadcast_to(gpupy.arange(3), (2, 3))
    with pytest.raises(ValueError, match=r"^\[byteswap\] array to be byte-swapped is read-only"):
        x.byteswap(inplace=True)
    testing.assert_same(numpy.broadcast_to(numpy.arange(3), (2, 3)).byteswap(), x.byteswap())


def test_setflags_write():
    for xp in (numpy, gpupy):
        a = xp.arange(6.0).reshape(2, 3).copy()
        assert a.setflags(write=False) is None
        assert not a.flags.writeable and not a.flags["WRITEABLE"]
        with pytest.raises(ValueError, match="read-only"):
            a[0, 0] = 1.0
        with pytest.raises(ValueError, match="read-only"):
            a += 1
        view = a[1:]
        assert not view.flags.writeable
        with pytest.raises(ValueError, match="cannot set WRITEABLE flag to True"):
            view.setflags(write=True)
        a.setflags(write=1)
        assert a.flags.writeable and not view.flags.writeable
        a[0, 0] = 9.0
        assert float(a[0, 0]) == 9.0
        a.setflags(write=True)  # already writeable: no change
        a.setflags(write=None)
        assert a.flags.writeable
        w = a[:, 1]
        w.setflags(write=False)
        assert not w.flags.writeable and a.flags.writeable
        # A view made read-only by hand: NumPy sees its writeable base, gpupy keeps no base.
        if xp is numpy:
            w.setflags(write=True)
            assert w.flags.writeable
        else:
            with pytest.raises(ValueError, match=r"^\[setflags\] cannot set WRITEABLE"):
                w.setflags(write=True)


def test_setflags_refusals():
    a = gpupy.arange(4.0)
    with pytest.raises(ValueError, match=r"^\[setflags\] cannot set WRITEBACKIFCOPY flag to True"):
        a.setflags(uic=True)
    a.setflags(uic=False, align=True)
    assert a.flags.writeable
    with pytest.raises(NotImplementedError, match=r"^\[setflags\] gpupy arrays are always aligned"):
        a.setflags(align=False)
    # gpupy keeps no chain of bases: a read-only view cannot be made writeable.
    for ro in (gpupy.broadcast_to(a, (2, 4)), a[1:]):
        ro.setflags(write=False)
        with pytest.raises(ValueError, match=r"^\[setflags\] cannot set WRITEABLE flag to True"):
            ro.setflags(write=True)
    assert a.flags.writeable


def test_setflags_numpy_memory():
    # Memory a read-only NumPy array owns is never made writeable through gpupy.
    h = numpy.arange(3.0)
    h.setflags(write=False)
    g = gpupy.asarray(h, device="cpu")
    assert not g.flags.writeable
    with pytest.raises(ValueError, match=r"^\[setflags\] cannot set WRITEABLE"):
        g.setflags(write=True)


@pytest.mark.parametrize("how", ["attribute", "key", "short key"])
def test_flags_writeable_can_be_set(how):
    # As in NumPy, `a.flags.writeable = False` (or flags["W"]) makes the array read-only.
    for xp in (numpy, gpupy):
        a = xp.zeros(3)
        if how == "attribute":
            a.flags.writeable = False
        else:
            a.flags["WRITEABLE" if how == "key" else "W"] = False
        assert not a.flags.writeable
        with pytest.raises(ValueError, match="read-only"):
            a[0] = 1.0
        a.flags.writeable = True
        a[0] = 1.0
        assert float(a[0]) == 1.0


def test_layout_flags_cannot_be_set():
    for xp in (numpy, gpupy):
        a = xp.zeros((2, 3))
        with pytest.raises(AttributeError):
            a.flags.c_contiguous = False
        with pytest.raises(KeyError):
            a.flags["C_CONTIGUOUS"] = False
        assert a.flags.c_contiguous and a.flags["C"]


def test_flags_compare_by_value():
    # found by NumPy's test_numeric.py TestClip, which compares results' flags with ==
    def pairs(xp):
        a = xp.ones((3, 4))
        ro = xp.ones((3, 4))
        ro.setflags(write=False)
        return [(a, xp.ones((3, 4))), (a, a[:, ::2]), (a, a.T), (a, ro), (a, a[1:])]

    expected = [x.flags == y.flags for x, y in pairs(numpy)]
    assert [x.flags == y.flags for x, y in pairs(gpupy)] == expected
    assert [x.flags != y.flags for x, y in pairs(gpupy)] == [not e for e in expected]
    with pytest.raises(TypeError):
        hash(gpupy.ones(2).flags)


# (not farray: NumPy 2.4 reports it True for some arrays that are neither C nor F contiguous)
@pytest.mark.parametrize("name", ["contiguous", "fortran", "writebackifcopy", "behaved", "carray"])
def test_flags_other_names(name):
    # found by NumPy's test_multiarray.py: flags.contiguous, flags.fortran, ...
    def views(xp):
        a = xp.ones((3, 4))
        ro = xp.ones((3, 4))
        ro.setflags(write=False)
        return [a, a.T, a[:, ::2], ro, xp.ones(3)]

    expected = [getattr(v.flags, name) for v in views(numpy)]
    assert [getattr(v.flags, name) for v in views(gpupy)] == expected
    assert [v.flags[name.upper()] for v in views(gpupy)] == expected
