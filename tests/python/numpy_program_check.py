"""Shared by the test_numpy_programs_* files: load an example program and compare what it returns
when run with gpupy against its NumPy run (values, dtypes, shapes, Python types)."""

import importlib
import sys

import gpupy
import numpy as np
import pytest


def load(directory, name):
    """The program module `name` from `directory` (examples/numpy_programs/<domain>)."""
    if str(directory) not in sys.path:
        sys.path.insert(0, str(directory))
    return importlib.import_module(name)


def run_both(directory, name):
    """(program, NumPy results, gpupy results) of one program; both return the same keys."""
    program = load(directory, name)
    expected, got = program.run(np), program.run(gpupy)
    assert sorted(got) == sorted(expected)
    return program, expected, got


def host(x):
    return gpupy.asnumpy(x) if isinstance(x, gpupy.ndarray) else x


def compare(ref, got, where, rtol, atol):
    """Asserts that `got` (the gpupy run) matches `ref` (the NumPy run): arrays and NumPy scalars
    by dtype, shape and value, containers item by item, Python numbers and strings by type."""
    if isinstance(ref, (np.ndarray, np.generic)):
        assert isinstance(got, (gpupy.ndarray, np.generic)), f"{where}: got {type(got).__name__}"
        g = np.asarray(host(got))
        assert g.dtype == ref.dtype, f"{where}: dtype {g.dtype}, NumPy {ref.dtype}"
        assert g.shape == np.shape(ref), f"{where}: shape {g.shape}, NumPy {np.shape(ref)}"
        if ref.dtype.kind in "fc":
            np.testing.assert_allclose(g, ref, rtol=rtol, atol=atol, equal_nan=True, err_msg=where)
        else:
            np.testing.assert_array_equal(g, ref, err_msg=where)
    elif isinstance(ref, (list, tuple)):
        assert type(got) is type(ref) and len(got) == len(ref), f"{where}: {got!r} vs {ref!r}"
        for i, (r, g) in enumerate(zip(ref, got, strict=True)):
            compare(r, g, f"{where}[{i}]", rtol, atol)
    elif isinstance(ref, dict):
        assert type(got) is dict and list(got) == list(ref), f"{where}: keys {list(got)}"
        for k, r in ref.items():
            compare(r, got[k], f"{where}[{k!r}]", rtol, atol)
    elif isinstance(ref, float):
        assert type(got) is float, f"{where}: got {type(got).__name__}, NumPy float"
        assert got == pytest.approx(ref, rel=rtol, abs=atol), where
    else:  # bool, int, str: exact, including the type
        assert type(got) is type(ref) and got == ref, f"{where}: {got!r}, NumPy {ref!r}"


def assert_on_device(got, where, device_name):
    if isinstance(got, gpupy.ndarray):
        assert got.device == gpupy.Device(device_name), f"{where}: left the device"
