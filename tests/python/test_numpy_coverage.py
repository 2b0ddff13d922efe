"""Every NumPy function that dispatches through __array_function__ reaches a gpupy function,
except the datetime, string and structured-dtype ones (gpupy arrays cannot hold those dtypes; see
docs/numpy_differences.md). tools/coverage_report.py prints the same counts."""

import pathlib
import sys

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
