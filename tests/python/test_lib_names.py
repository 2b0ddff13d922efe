"""gpupy.lib's NumPy names: NumpyVersion, mixins.NDArrayOperatorsMixin over gpupy arrays, and
array_utils (byte_bounds on every device against NumPy's for the same layouts,
normalize_axis_index/tuple)."""

import gpupy
import numpy
import pytest
from gpupy.lib import array_utils


def test_numpy_version_is_numpys():
    assert gpupy.lib.NumpyVersion is numpy.lib.NumpyVersion
    assert gpupy.lib.NumpyVersion(numpy.__version__) >= "2.0.0"
    assert gpupy.lib.NumpyVersion("1.26.4") < "2.0.0rc1"


class Wrapped(gpupy.lib.mixins.NDArrayOperatorsMixin):
    """NumPy's documented mixin pattern: unwrap, call the ufunc, wrap the result."""

    def __init__(self, value):
        self.value = value

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        inputs = tuple(x.value if isinstance(x, Wrapped) else x for x in inputs)
        return Wrapped(getattr(ufunc, method)(*inputs, **kwargs))


def test_operators_mixin_runs_on_gpupy_arrays(device_name):
    assert gpupy.lib.mixins.NDArrayOperatorsMixin is numpy.lib.mixins.NDArrayOperatorsMixin
    host = numpy.array([0.5, 1.0, 2.0])
    g = gpupy.asarray(host, device=device_name)
    cases = [
        lambda w, a: w + 1,
        lambda w, a: w * w,
        lambda w, a: -w,
        lambda w, a: a - w,  # the array defers to the wrapper
        lambda w, a: w < a,
        lambda w, a: 2**w,
        lambda w, a: abs(w) // 0.3,
    ]
    for case in cases:
        mine, ref = case(Wrapped(g), g), case(Wrapped(host), host)
        assert isinstance(mine, Wrapped) and isinstance(mine.value, gpupy.ndarray)
        assert mine.value.device == g.device
        numpy.testing.assert_array_equal(mine.value.get(), ref.value)


LAYOUTS = [
    lambda a: a,
    lambda a: a[:, ::2],
    lambda a: a.T,
    lambda a: a[::-1, 1:3],
    lambda a: a[2:, ::-3],
    lambda a: a[1, 2, ...],
    lambda a: a[:0],
]


@pytest.mark.parametrize("layout", range(len(LAYOUTS)))
def test_byte_bounds_is_numpys_on_every_device(device_name, layout):
    host = numpy.arange(24, dtype=numpy.float32).reshape(4, 6)
    a = gpupy.asarray(host, device=device_name)
    ref, view = LAYOUTS[layout](host), LAYOUTS[layout](a)
    lo, hi = numpy.lib.array_utils.byte_bounds(ref)
    base = host.ctypes.data
    got = array_utils.byte_bounds(view)
    assert (got[0] - a._data_ptr, got[1] - a._data_ptr) == (lo - base, hi - base)
    if device_name == "cpu" and view.size:  # NumPy's own, through __array_interface__
        assert numpy.lib.array_utils.byte_bounds(view) == got
    assert array_utils.byte_bounds(ref) == (lo, hi)  # NumPy arrays go to NumPy's


def test_normalize_axis_functions_raise_gpupys_axis_error(device_name):
    a = gpupy.ones((2, 3, 4), device=device_name)
    assert array_utils.normalize_axis_index(-1, a.ndim) == 2
    assert array_utils.normalize_axis_tuple((0, -1), a.ndim) == (0, 2)
    with pytest.raises(gpupy.exceptions.AxisError):
        array_utils.normalize_axis_index(3, a.ndim)
    with pytest.raises(ValueError, match="repeated axis"):
        array_utils.normalize_axis_tuple((1, -2), a.ndim)
