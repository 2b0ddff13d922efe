"""numpy.testing's assertions, accepting gpupy arrays (NumPy programs call
np.testing.assert_allclose with ``np`` being gpupy). gpupy arrays, also inside lists, tuples and
dicts, are copied to the host, an explicit test-time transfer, and NumPy compares them."""

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

assert_ = numpy.testing.assert_
assert_raises = numpy.testing.assert_raises
assert_raises_regex = numpy.testing.assert_raises_regex
assert_warns = numpy.testing.assert_warns
assert_no_warnings = numpy.testing.assert_no_warnings

__all__ = list(_COMPARISONS) + [
    "assert_",
    "assert_no_warnings",
    "assert_raises",
    "assert_raises_regex",
    "assert_warns",
]
