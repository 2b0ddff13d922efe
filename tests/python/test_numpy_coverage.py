"""Every NumPy function that dispatches through __array_function__ reaches a gpupy function,
except the datetime, string and structured-dtype ones (gpupy arrays cannot hold those dtypes; see
docs/numpy_differences.md). tools/coverage_report.py prints the same counts."""

import pathlib
import sys
import types

import gpupy
import numpy as np
import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parents[2] / "tools"))
import coverage_report  # noqa: E402

# Names gpupy leaves out on purpose: they exist for dtypes gpupy does not support.
DATETIME = {"busday_count", "busday_offset", "datetime_as_string", "is_busday"}
UNSUPPORTED_DTYPE_MODULES = ("lib.recfunctions.", "strings.", "char.")


def _deliberately_absent(name):
    return name in DATETIME or name.startswith(UNSUPPORTED_DTYPE_MODULES)


def test_every_numpy_function_outside_datetime_and_records_dispatches_to_gpupy():
    names, done = coverage_report.numpy_functions()
    missing = sorted(n for n in names - done if not _deliberately_absent(n))
    if missing and np.lib.NumpyVersion(np.__version__) >= "2.5.0":
        pytest.skip(f"NumPy {np.__version__} is newer than the 2.4 API gpupy tracks: {missing}")
    assert missing == []


def test_every_numpy_ufunc_has_a_gpupy_function():
    names, done = coverage_report.numpy_ufuncs()
    assert sorted(names - done) == []


def test_deliberately_absent_names_raise_type_error_on_gpupy_arrays():
    a = gpupy.asarray([1.0, 2.0])
    with pytest.raises(TypeError):
        np.is_busday(a)


# Every public NumPy name gpupy leaves out, by reason; anything else NumPy has, gpupy has
# (docs/numpy_differences.md explains the dtypes, matrix and record exclusions).
_DTYPES_NOT_HELD = (
    "bytes_ character clongdouble complex256 datetime64 flexible float128 longdouble object_ "
    "str_ timedelta64 void datetime_data busday_count busday_offset busdaycalendar "
    "datetime_as_string is_busday record recarray rec char strings sctypeDict"
)
_NUMPY_ONLY = (
    "asmatrix bmat matrix ma memmap f2py nditer nested_iters core "
    "get_include info show_config show_runtime test typing"
)
LEFT_OUT = {
    "numpy": set((_DTYPES_NOT_HELD + " " + _NUMPY_ONLY).split()),
    # the modules of NumPy's own bit generators and its test runner
    "numpy.random": {"bit_generator", "mtrand", "test"},
    # NumPy's own test infrastructure (build flags, runners, memory probes)
    "numpy.testing": set(
        "BLAS_SUPPORTS_FPE HAS_LAPACK64 IS_EDITABLE IS_INSTALLED IS_MUSL IS_PYPY IS_PYSTON "
        "IS_WASM IgnoreException KnownFailureException NOGIL_BUILD NUMPY_ROOT SkipTest TestCase "
        "build_err_msg check_support_sve decorate_methods extbuild jiffies measure memusage "
        "overrides print_assert_equal run_threaded rundocs runstring test verbose".split()
    ),
    "numpy.lib": set(
        "Arrayterator add_docstring add_newdoc format introspect npyio recfunctions test "
        "tracemalloc_domain".split()
    ),
    "numpy.linalg": {"test"},
    "numpy.fft": {"test"},
    "numpy.polynomial": {"test"},
    "numpy.exceptions": set(),
    "numpy.ctypeslib": set(),
    "numpy.lib.mixins": set(),
    "numpy.lib.array_utils": set(),
    # the classes of the dtypes gpupy arrays cannot hold
    "numpy.dtypes": set(
        "BytesDType CLongDoubleDType DateTime64DType LongDoubleDType ObjectDType StrDType "
        "StringDType TimeDelta64DType VoidDType".split()
    ),
}
# ndarray: the subclassing hooks (gpupy has no ndarray subclasses), pickling through __reduce__
# instead of __setstate__, and the structured-dtype field accessors.
NDARRAY_LEFT_OUT = {
    "__array_finalize__",
    "__array_struct__",
    "__array_wrap__",
    "__setstate__",
    "getfield",
    "setfield",
}


def _own(module, name):
    """A name of the module, not a module it imported under another name (mixins' `um`)."""
    value = getattr(module, name)
    return not isinstance(value, types.ModuleType) or value.__name__ == f"{module.__name__}.{name}"


@pytest.mark.parametrize("module", sorted(LEFT_OUT))
def test_numpy_names_gpupy_lacks_are_the_listed_ones(module):
    import importlib

    numpy_module = importlib.import_module(module)
    gpupy_module = importlib.import_module("gpupy" + module[len("numpy") :])
    names = {n for n in dir(numpy_module) if not n.startswith("_") and _own(numpy_module, n)}
    missing = {n for n in names if not hasattr(gpupy_module, n)}
    if np.lib.NumpyVersion(np.__version__) >= "2.5.0" and missing - LEFT_OUT[module]:
        pytest.skip(f"NumPy {np.__version__} is newer than the 2.4 API gpupy tracks")
    assert sorted(missing) == sorted(LEFT_OUT[module] & names)


def test_ndarray_attributes_gpupy_lacks_are_the_listed_ones():
    missing = {n for n in dir(np.ndarray) if not hasattr(gpupy.ndarray, n)}
    assert sorted(missing) == sorted(NDARRAY_LEFT_OUT)
