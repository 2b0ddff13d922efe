"""Transcendental functions against NumPy's own accuracy data (umath-validation-set-*.csv, shipped
in NumPy's wheel): inputs with correctly rounded reference results and the ULP error NumPy allows
itself per function and dtype. gpupy must stay within the same bound on every device."""

import pathlib

import gpupy
import numpy
import pytest
from numpy.testing import assert_array_max_ulp

_DATA = pathlib.Path(numpy.__file__).parent / "_core" / "tests" / "data"
_FILES = sorted(_DATA.glob("umath-validation-set-*.csv"))
# NumPy's files have float32 and float64 rows (float16 accuracy is in test_float16_ops.py).
_DTYPES = {"np.float32": (numpy.float32, numpy.uint32), "np.float64": (numpy.float64, numpy.uint64)}


def _load(path):
    """{dtype: (inputs, expected outputs, max ulp)} from one validation file."""
    rows = {}
    for line in path.read_text().splitlines():
        fields = line.split(",")
        if len(fields) != 4 or fields[0] not in _DTYPES:
            continue  # header and comment lines
        rows.setdefault(fields[0], []).append(fields[1:])
    data = {}
    for name, entries in rows.items():
        dtype, bits = _DTYPES[name]
        raw = numpy.array([[int(x, 16), int(y, 16)] for x, y, _ in entries], dtype=bits)
        data[dtype] = (
            raw[:, 0].view(dtype),
            raw[:, 1].view(dtype),
            max(float(u) for *_, u in entries),
        )
    return data


def _cases():
    for path in _FILES:
        ufunc = path.stem.removeprefix("umath-validation-set-")
        for dtype in (numpy.float32, numpy.float64):
            yield pytest.param(path, ufunc, dtype, id=f"{ufunc}-{numpy.dtype(dtype).name}")


def test_validation_data_is_shipped():
    # Without this guard a NumPy wheel without the data would make the module test nothing.
    assert len(_FILES) >= 20, f"NumPy's validation data not found under {_DATA}"


@pytest.mark.parametrize(("path", "ufunc", "dtype"), list(_cases()))
def test_within_numpy_ulp_bound(path, ufunc, dtype):
    data = _load(path)
    if dtype not in data:
        pytest.skip(f"no {numpy.dtype(dtype).name} rows for {ufunc}")
    inputs, expected, max_ulp = data[dtype]
    result = getattr(gpupy, ufunc)(gpupy.asarray(inputs))
    assert result.dtype == dtype
    assert_array_max_ulp(gpupy.asnumpy(result), expected, maxulp=max_ulp, dtype=dtype)
