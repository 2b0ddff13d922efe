"""gpupy.testing's copies of numpy.testing's assertions accept gpupy arrays on any device."""

import warnings

import gpupy
import numpy as np
import pytest


def test_testing_is_loaded_with_gpupy():
    import importlib
    import subprocess
    import sys

    code = "import gpupy; print(callable(gpupy.testing.assert_allclose))"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "True"
    assert importlib.import_module("gpupy.testing") is gpupy.testing


def test_assertions_pass_on_equal_values():
    a = gpupy.asarray([[1.0, 2.0], [3.0, 4.0 + 1e-9]])
    gpupy.testing.assert_allclose(a, np.array([[1.0, 2.0], [3.0, 4.0]]), rtol=1e-6)
    gpupy.testing.assert_array_equal(a[0], [1.0, 2.0])
    gpupy.testing.assert_array_almost_equal(a, a.copy(), decimal=6)
    gpupy.testing.assert_almost_equal(float(a.sum()), 10.0, decimal=6)
    gpupy.testing.assert_array_less(a, a + 1)
    gpupy.testing.assert_equal([a[0], 3], [np.array([1.0, 2.0]), 3])
    gpupy.testing.assert_equal({"x": a[1, :1]}, {"x": np.array([3.0])})


@pytest.mark.parametrize(
    "check, args",
    [
        ("assert_allclose", ([1.0, 2.0], [1.0, 2.1])),
        ("assert_array_equal", ([1, 2], [1, 3])),
        ("assert_array_less", ([1, 2], [2, 2])),
        ("assert_equal", ([1, 2], [2, 1])),
    ],
)
def test_assertions_fail_like_numpy(check, args):
    actual, desired = gpupy.asarray(args[0]), gpupy.asarray(args[1])
    with pytest.raises(AssertionError) as numpy_error:
        getattr(np.testing, check)(np.array(args[0]), np.array(args[1]))
    with pytest.raises(AssertionError) as gpupy_error:
        getattr(gpupy.testing, check)(actual, desired)
    assert str(gpupy_error.value) == str(numpy_error.value)


def _raising(exc_type):
    def body(xp):
        raise exc_type("raised under " + xp.__name__)

    return body


def test_numpy_gpupy_allclose_refuses_errors_unless_accepted():
    # Both libraries raising compares nothing: only accept_error=True lets it pass.
    with pytest.raises(AssertionError, match="numpy raised ValueError, gpupy ValueError"):
        gpupy.testing.numpy_gpupy_allclose()(_raising(ValueError))()
    gpupy.testing.numpy_gpupy_allclose(accept_error=True)(_raising(ValueError))()


@pytest.mark.parametrize("exc_type", [NameError, AssertionError])
def test_numpy_gpupy_allclose_never_accepts_the_tests_own_mistakes(exc_type):
    with pytest.raises(AssertionError, match=f"numpy raised {exc_type.__name__}"):
        gpupy.testing.numpy_gpupy_allclose(accept_error=True)(_raising(exc_type))()


@pytest.mark.parametrize("comparison", [np.less, gpupy.less])
def test_assert_array_compare_reports_as_numpy(device_name, comparison):
    x, y = np.array([1.0, 5.0, 2.0]), np.array([2.0, 3.0, 4.0])
    gx, gy = (gpupy.asarray(v, device=device_name) for v in (x, y))
    gpupy.testing.assert_array_compare(comparison, gx, gy + 3, header="below")
    with pytest.raises(AssertionError) as numpys:
        np.testing.assert_array_compare(np.less, x, y, header="below")
    with pytest.raises(AssertionError) as mine:
        gpupy.testing.assert_array_compare(comparison, gx, gy, header="below")
    assert str(mine.value) == str(numpys.value) and "Mismatched elements: 1 / 3" in str(mine.value)


def test_helpers_taking_no_arrays_are_numpys(device_name, tmp_path):
    names = "HAS_REFCOUNT IS_64BIT assert_no_gc_cycles break_cycles clear_and_catch_warnings"
    for name in (*names.split(), "suppress_warnings", "tempdir", "temppath"):
        assert getattr(gpupy.testing, name) is getattr(np.testing, name)
    a = gpupy.arange(6.0, device=device_name)
    with gpupy.testing.assert_no_gc_cycles():  # gpupy's array operations leave no cycles
        (a.reshape(2, 3) * 2 + 1).sum(axis=0)[1:].get()

    class Cycle:
        pass

    with pytest.raises(AssertionError, match="Reference cycles were found"):
        with gpupy.testing.assert_no_gc_cycles():
            c = Cycle()
            c.me = (c, a + 1)  # a gpupy array inside a cycle is found like any object
            del c
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # suppress_warnings, since NumPy 2.4
        with gpupy.testing.suppress_warnings() as sup:
            log = sup.record(np.exceptions.ComplexWarning)
            gpupy.asarray([1j], device=device_name).astype("float64")
    assert len(log) == 1
    with gpupy.testing.temppath(suffix=".npy") as path:
        gpupy.save(path, a)
        np.testing.assert_array_equal(gpupy.load(path).get(), np.arange(6.0))
