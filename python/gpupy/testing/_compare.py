"""The NumPy-comparison decorator (in the spirit of CuPy's ``numpy_cupy_allclose``).

A test body written against a namespace ``xp`` runs twice, once with ``xp=numpy`` and once with
``xp=gpupy`` on the default device; the results must agree in value, dtype and shape, and when one
side raises, the other must raise the same exception type.
"""

import functools
import inspect

import numpy

import gpupy

BOOL_DTYPES = ("bool",)
INT_DTYPES = ("int8", "int16", "int32", "int64")
UINT_DTYPES = ("uint8", "uint16", "uint32", "uint64")
FLOAT_DTYPES = ("float16", "float32", "float64")
COMPLEX_DTYPES = ("complex64", "complex128")
ALL_DTYPES = BOOL_DTYPES + INT_DTYPES + UINT_DTYPES + FLOAT_DTYPES + COMPLEX_DTYPES

# Default relative tolerances by result dtype: float32 arithmetic is held to 1e-6 by the design;
# transcendental functions get a few ULPs more. float16 gets one of its ulps (2**-10): NumPy and
# gpupy compute it in float32 and round, and may land on either side of a halfway point.
_RTOL = {"float16": 1e-3, "float32": 2e-6, "complex64": 2e-6, "float64": 1e-12, "complex128": 1e-12}


def for_dtypes(dtypes=ALL_DTYPES, name="dtype"):
    """Parametrises a test over dtype names (pytest.mark.parametrize shorthand)."""
    import pytest

    return pytest.mark.parametrize(name, list(dtypes))


def float16_in_float32(xp, fn, a, *args, **kwargs):
    """``fn(a, ...)`` as gpupy computes float16 reductions and scans: with ``xp=numpy`` and a
    float16 ``a``, NumPy computes in float32 and the float16 result is rounded once (NumPy's own
    float16 cumsum, cumprod and strided-axis sums round every step; see
    docs/numpy_differences.md). Anything else is ``fn(a, ...)`` itself."""
    if xp is not numpy or a.dtype != numpy.float16:
        return fn(a, *args, **kwargs)
    result = fn(a.astype(numpy.float32), *args, **kwargs)
    return result.astype(numpy.float16) if result.dtype == numpy.float32 else result


def _to_numpy(value):
    if isinstance(value, gpupy.ndarray):
        return value.get()
    if isinstance(value, (list, tuple)):
        return type(value)(_to_numpy(v) for v in value)
    return value


def assert_same(expected, actual, rtol=None, atol=0.0, type_check=True):
    """Checks gpupy's result against NumPy's: shape, dtype (if type_check) and values.

    ``atol`` may be a dict from dtype name to tolerance, for sums whose rounding depends on the
    summation order (devices reduce in a different order than NumPy's pairwise sum).
    """
    if isinstance(expected, (list, tuple)):
        assert len(expected) == len(actual)
        for e, a in zip(expected, actual, strict=True):
            assert_same(e, a, rtol, atol, type_check)
        return
    actual = _to_numpy(actual)
    e = numpy.asarray(expected)
    a = numpy.asarray(actual)
    assert e.shape == a.shape, f"shape: numpy {e.shape}, gpupy {a.shape}"
    if type_check:
        assert e.dtype == a.dtype, f"dtype: numpy {e.dtype}, gpupy {a.dtype}"
    if e.dtype.kind in "fc" or a.dtype.kind in "fc":
        tol = rtol if rtol is not None else _RTOL.get(a.dtype.name, 1e-12)
        if a.dtype == numpy.float16:  # a float32 tolerance asks more than float16 can give
            tol = max(tol, _RTOL["float16"])
        if isinstance(atol, dict):
            atol = atol.get(a.dtype.name, 0.0)
        numpy.testing.assert_allclose(a, e, rtol=tol, atol=atol, equal_nan=True)
    else:
        numpy.testing.assert_array_equal(a, e)


def _run(body, xp, args, kwargs):
    try:
        return body(*args, xp=xp, **kwargs), None
    except Exception as exc:  # noqa: BLE001 - the comparison decides what is allowed
        return None, exc


def numpy_gpupy_allclose(rtol=None, atol=0.0, type_check=True, accept_error=False):
    """Decorator: the test takes ``xp``; its return values under NumPy and gpupy must agree.

    When NumPy raises, the test fails unless ``accept_error`` is true; then gpupy must raise the
    same exception type (a NameError or AssertionError in the body fails even then). The default
    is False (as cupy.testing's), so a test whose body raises by mistake under both libraries
    cannot pass without comparing anything.
    NumPy warnings (overflow, divide by zero) are silenced on the NumPy side, since gpupy
    kernels follow NumPy's values without its floating-point warnings.
    """

    def decorator(body):
        @functools.wraps(body)
        def wrapper(*args, **kwargs):
            with numpy.errstate(all="ignore"):
                expected, np_error = _run(body, numpy, args, kwargs)
            actual, gp_error = _run(body, gpupy, args, kwargs)
            if np_error is not None or gp_error is not None:
                if np_error is None:
                    raise gp_error
                if gp_error is None:
                    raise AssertionError(
                        f"numpy raised {type(np_error).__name__}: {np_error}; gpupy did not"
                    ) from np_error
                # A NameError or a failed assert is the test's own mistake, never an accepted error.
                own_mistake = isinstance(np_error, (NameError, AssertionError))
                if (
                    not accept_error
                    or own_mistake
                    or not isinstance(gp_error, _exception_family(np_error))
                ):
                    raise AssertionError(
                        f"numpy raised {type(np_error).__name__}, gpupy "
                        f"{type(gp_error).__name__}: {gp_error}"
                    ) from gp_error
                return
            assert_same(expected, actual, rtol, atol, type_check)

        # pytest must not see `xp` as a fixture.
        sig = inspect.signature(body)
        wrapper.__signature__ = sig.replace(
            parameters=[p for p in sig.parameters.values() if p.name != "xp"]
        )
        return wrapper

    return decorator


def _exception_family(np_error):
    # numpy's AxisError subclasses both ValueError and IndexError; UFuncTypeError is a TypeError.
    if isinstance(np_error, numpy.exceptions.AxisError):
        return (ValueError, IndexError)
    for base in (
        TypeError,
        ValueError,
        IndexError,
        OverflowError,
        ZeroDivisionError,
        NotImplementedError,
        MemoryError,
    ):
        if isinstance(np_error, base):
            return base
    return type(np_error)


def numpy_gpupy_raises():
    """Decorator: the body must raise the same exception type under NumPy and gpupy."""

    def decorator(body):
        checked = numpy_gpupy_allclose(accept_error=True)(body)

        @functools.wraps(checked)
        def wrapper(*args, **kwargs):
            with numpy.errstate(all="ignore"):
                _, np_error = _run(body, numpy, args, kwargs)
            assert np_error is not None, "numpy did not raise"
            checked(*args, **kwargs)

        wrapper.__signature__ = checked.__signature__
        return wrapper

    return decorator
