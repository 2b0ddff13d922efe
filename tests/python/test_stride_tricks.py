"""Memory overlap (shares_memory, may_share_memory), introspection (shape, size, ndim, isscalar,
iterable) and gpupy.lib.stride_tricks (sliding_window_view, as_strided), against NumPy on the
device under test."""

import gpupy
import numpy
import pytest
from gpupy.lib.stride_tricks import as_strided, sliding_window_view
from gpupy.testing import numpy_gpupy_allclose, numpy_gpupy_raises

# ---- memory overlap --------------------------------------------------------------------------


def test_shares_memory_exact_and_bounds():
    a = gpupy.arange(20, dtype="int32")
    cases = [
        (a, a),
        (a[::2], a[1::2]),
        (a[:10], a[10:]),
        (a[:11], a[10:]),
        (a.reshape(4, 5)[:, 1], a.reshape(4, 5)[:, 2]),
        (a, gpupy.arange(3)),
        (a[3:3], a),
    ]
    for x, y in cases:
        hx, hy = _host_twins(x, y)
        assert gpupy.shares_memory(x, y) == numpy.shares_memory(hx, hy)
        assert gpupy.may_share_memory(x, y) == numpy.may_share_memory(hx, hy)
        assert gpupy.may_share_memory(x, y, max_work=-1) == numpy.shares_memory(hx, hy)
    assert not gpupy.shares_memory([1, 2], [1, 2])


def _host_twins(x, y):
    """NumPy views of one host array laid out as x and y are in their shared buffer."""
    base = numpy.arange(20, dtype="int32")
    lo = min(x._buffer_range[0], y._buffer_range[0])

    def twin(v):
        if not v._same_buffer(x) or not v._same_buffer(y):
            return numpy.zeros(v.shape, v.dtype)
        offset = v._data_ptr - lo
        return numpy.lib.stride_tricks.as_strided(base[offset // 4 :], v.shape, v.strides)

    return twin(x), twin(y)


def test_shares_memory_with_numpy_on_cpu(device_name):
    host = numpy.arange(8.0)
    a = gpupy.asarray(host)
    assert gpupy.shares_memory(a, host) == (device_name == "cpu")
    assert numpy.shares_memory(a[2:], a[:3])


def test_shares_memory_too_hard():
    a = gpupy.zeros(1000, dtype="int8")
    x = as_strided(a, (10, 10, 9), (91, 9, 1))
    y = as_strided(a, (11, 11, 7), (83, 7, 1))
    with pytest.raises(numpy.exceptions.TooHardError):
        gpupy.shares_memory(x, y, max_work=1)


# ---- introspection ----------------------------------------------------------------------------


def test_shape_size_ndim_isscalar_iterable():
    a = gpupy.zeros((2, 3, 4))
    assert gpupy.shape(a) == (2, 3, 4) and gpupy.shape([[1, 2]]) == (1, 2)
    assert gpupy.ndim(a) == 3 and gpupy.ndim(5) == 0
    assert gpupy.size(a) == 24 and gpupy.size(a, 1) == 3 and gpupy.size(a, (0, -1)) == 8
    assert gpupy.size([[1, 2, 3]], 1) == numpy.size([[1, 2, 3]], 1)
    with pytest.raises(ValueError, match=r"\[size\]"):
        gpupy.size(a, 3)
    for value in (1, 2.5, 1j, numpy.float32(1), "s", b"b", True):
        assert gpupy.isscalar(value) == numpy.isscalar(value)
    for value in (gpupy.asarray(1), [1], None, numpy.array(1)):
        assert gpupy.isscalar(value) == numpy.isscalar(
            numpy.array(1) if value is not None else None
        )
    assert gpupy.iterable(a) and gpupy.iterable([1]) and not gpupy.iterable(gpupy.asarray(1))
    assert not gpupy.iterable(3)
    # NumPy's functions reach gpupy's through __array_function__.
    assert numpy.shape(a) == (2, 3, 4) and numpy.size(a, 2) == 4 and numpy.ndim(a) == 3


# ---- stride tricks --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "window,axis",
    [(3, None), ((2, 2), None), (2, 0), (3, -1), ((2, 3), (1, 0)), ((2, 2), (1, 1)), (0, 1)],
)
@numpy_gpupy_allclose()
def test_sliding_window_view(window, axis, xp):
    st = numpy.lib.stride_tricks if xp is numpy else gpupy.lib.stride_tricks
    x = xp.asarray(numpy.arange(20, dtype="float32").reshape(4, 5))
    if axis is None and numpy.ndim(window) == 0:
        x = x[0]
    return st.sliding_window_view(x, window, axis=axis)


def test_sliding_window_view_is_a_read_only_view():
    x = gpupy.arange(6)
    v = sliding_window_view(x, 3)
    assert gpupy.shares_memory(v, x) and not v.flags.writeable
    with pytest.raises(ValueError):
        v[0, 0] = 1
    w = sliding_window_view(x, 3, writeable=True)
    w[1, 0] = 42
    assert int(x[1]) == 42
    assert numpy.lib.stride_tricks.sliding_window_view(x, 2).shape == (5, 2)


@pytest.mark.parametrize("case", ["negative", "too_large", "axis_count", "none_count", "bad_axis"])
@numpy_gpupy_raises()
def test_sliding_window_view_errors(case, xp):
    st = numpy.lib.stride_tricks if xp is numpy else gpupy.lib.stride_tricks
    x = xp.zeros((3, 4))
    args = {
        "negative": ((-1, 2), None),
        "too_large": ((4, 2), None),
        "axis_count": ((2, 2), 0),
        "none_count": (2, None),
        "bad_axis": (2, 2),
    }[case]
    return st.sliding_window_view(x, args[0], axis=args[1])


def test_as_strided():
    x = gpupy.arange(12, dtype="int64")
    host = x.get()
    for shape, strides in [
        ((3, 4), (32, 8)),
        ((4, 3), (8, 32)),
        ((5, 3), (16, 8)),
        ((2, 2), (0, 8)),
    ]:
        got = as_strided(x, shape, strides)
        expected = numpy.lib.stride_tricks.as_strided(host, shape, strides)
        numpy.testing.assert_array_equal(got.get(), expected)
        assert gpupy.shares_memory(got, x)
    assert as_strided(x).shape == x.shape
    assert not as_strided(x, writeable=False).flags.writeable
    v = as_strided(x[2:], (2,), (16,))
    numpy.testing.assert_array_equal(v.get(), [2, 4])
    with pytest.raises(ValueError, match=r"\[as_strided\] the view would reach outside"):
        as_strided(x, (13,), (8,))
    with pytest.raises(ValueError, match=r"\[as_strided\] the view would reach outside"):
        as_strided(x[2:], (2,), (-24,))
    with pytest.raises(ValueError, match=r"\[as_strided\] .*aligned"):
        as_strided(x, (2,), (4,))
    with pytest.raises(ValueError, match=r"\[as_strided\]"):
        as_strided(x, (2, 2), (8,))


@pytest.mark.parametrize(
    "shape, strides",
    [
        ((2**61 + 1,), (8,)),  # the span wraps int64 to 0
        ((2**61 + 1,), (-8,)),
        ((2**62, 3), (0, 0)),  # the size wraps (negative)
        ((2**40, 2**30), (0, 0)),  # the size wraps to 0
        ((2**60 + 1, 2), (16, 8)),
    ],
)
def test_as_strided_refuses_sizes_that_overflow(shape, strides):
    # NumPy refuses these sizes too; an unchecked product would let the view read past x.
    x = gpupy.zeros(4, dtype="int64")
    with pytest.raises(ValueError, match=r"\[as_strided\] array is too big"):
        as_strided(x, shape, strides)


@pytest.mark.parametrize(
    "shape, strides",
    [((2,), (2**63 - 1,)), ((3,), (2**62,)), ((2, 2), (2**62, 2**62)), ((2,), (-(2**63),))],
)
def test_as_strided_refuses_spans_that_overflow(shape, strides):
    x = gpupy.zeros(4, dtype="int8")
    with pytest.raises(ValueError, match=r"\[as_strided\] the view would reach outside"):
        as_strided(x, shape, strides)


def test_as_strided_values_beyond_int64():
    x = gpupy.zeros(4, dtype="int8")
    with pytest.raises(OverflowError, match=r"\[as_strided\] shape"):
        as_strided(x, (2**63,), (0,))
    with pytest.raises(OverflowError, match=r"\[as_strided\] strides"):
        as_strided(x, (2,), (2**64,))
    assert as_strided(x, (10**6, 10**6), (0, 0)).shape == (10**6, 10**6)
