"""numpy.testing's assertions, accepting gpupy arrays (NumPy programs call
np.testing.assert_allclose with ``np`` being gpupy). gpupy arrays, also inside lists, tuples and
dicts, are copied to the host, an explicit test-time transfer, and NumPy compares them. The
helpers that take no arrays (suppress_warnings, tempdir, assert_no_gc_cycles, ...) are NumPy's."""

import functools

import numpy
import numpy.testing

import gpupy

_COMPARISONS = (
    "assert_allclose",
    "assert_almost_equal",
    "assert_approx_equal",
    "assert_array_almost_equal",
    "assert_array_almost_equal_nulp",
    "assert_array_equal",
    "assert_array_less",
    "assert_array_max_ulp",
    "assert_equal",
    "assert_string_equal",
)


def _host(x):
    if isinstance(x, gpupy.ndarray):
        return x.get()
    if isinstance(x, (list, tuple)) and any(isinstance(v, (gpupy.ndarray, list, tuple)) for v in x):
        return [_host(v) for v in x] if isinstance(x, list) else tuple(_host(v) for v in x)
    if isinstance(x, dict):
        return {k: _host(v) for k, v in x.items()}
    return x


def _on_host(check):
    @functools.wraps(check)
    def compare(actual, desired, *args, **kwargs):
        __tracebackhide__ = True  # pytest shows the caller's line
        return check(_host(actual), _host(desired), *args, **kwargs)

    return compare


for _name in _COMPARISONS:
    globals()[_name] = _on_host(getattr(numpy.testing, _name))


@functools.wraps(numpy.testing.assert_array_compare)
def assert_array_compare(comparison, x, y, *args, **kwargs):
    __tracebackhide__ = True
    return numpy.testing.assert_array_compare(comparison, _host(x), _host(y), *args, **kwargs)


# numpy.testing's helpers that take no arrays, as they are.
_AS_IS = (
    "HAS_REFCOUNT IS_64BIT assert_no_gc_cycles break_cycles clear_and_catch_warnings "
    "suppress_warnings tempdir temppath"
).split()
globals().update({name: getattr(numpy.testing, name) for name in _AS_IS})

assert_ = numpy.testing.assert_
assert_raises = numpy.testing.assert_raises
assert_raises_regex = numpy.testing.assert_raises_regex
assert_warns = numpy.testing.assert_warns
assert_no_warnings = numpy.testing.assert_no_warnings

__all__ = (
    list(_COMPARISONS)
    + _AS_IS
    + [
        "assert_",
        "assert_array_compare",
        "assert_no_warnings",
        "assert_raises",
        "assert_raises_regex",
        "assert_warns",
    ]
)
