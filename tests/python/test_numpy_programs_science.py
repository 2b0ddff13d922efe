"""Runs every program in examples/numpy_programs/science with NumPy and with gpupy on the device
under test and compares the results: values (with each program's tolerances), dtypes, shapes."""

import importlib.util
import pathlib

import gpupy
import numpy
import pytest

PROGRAM_DIR = (
    pathlib.Path(__file__).resolve().parents[2] / "examples" / "numpy_programs" / "science"
)
PROGRAMS = sorted(p.stem for p in PROGRAM_DIR.glob("*.py") if not p.name.startswith("_"))


def _load(name):
    spec = importlib.util.spec_from_file_location(f"science_{name}", PROGRAM_DIR / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _host(value):
    """A gpupy result as NumPy data; Python scalars and NumPy values pass through."""
    if isinstance(value, gpupy.ndarray):
        return gpupy.asnumpy(value)
    return value


def _compare(key, expected, actual, rtol, atol):
    if isinstance(expected, (tuple, list)):
        assert type(actual) is type(expected) and len(actual) == len(expected), key
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            _compare(f"{key}[{i}]", e, a, rtol, atol)
        return
    if isinstance(expected, (bool, int, float, complex, str)) and not isinstance(
        expected, numpy.generic
    ):
        assert type(actual) is type(expected), f"{key}: {type(actual)} != {type(expected)}"
        if isinstance(expected, str):
            assert actual == expected, key
            return
        numpy.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol, err_msg=key)
        return
    expected = numpy.asarray(expected)
    actual = _host(actual)
    assert isinstance(actual, (numpy.ndarray, numpy.generic)), f"{key}: got {type(actual)}"
    assert actual.shape == expected.shape, f"{key}: shape {actual.shape} != {expected.shape}"
    assert actual.dtype == expected.dtype, f"{key}: dtype {actual.dtype} != {expected.dtype}"
    if expected.dtype == bool or expected.dtype.kind in "iu":
        numpy.testing.assert_array_equal(actual, expected, err_msg=key)
    else:
        numpy.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol, err_msg=key)


@pytest.mark.parametrize("name", PROGRAMS)
def test_program_matches_numpy(name, device_name):
    program = _load(name)
    expected = program.run(numpy)
    actual = program.run(gpupy)
    assert set(actual) == set(expected)
    default = getattr(program, "TOLERANCE", (1e-10, 1e-12))
    tolerances = getattr(program, "TOLERANCES", {})
    for key, value in expected.items():
        rtol, atol = tolerances.get(key, default)
        _compare(key, value, actual[key], rtol, atol)


def test_programs_are_present():
    assert len(PROGRAMS) >= 12
