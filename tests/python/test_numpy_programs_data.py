"""Data-processing and machine-learning NumPy programs (examples/numpy_programs/data) run unchanged
with gpupy on the device under test and give NumPy's values, dtypes and shapes."""

import importlib
import pathlib
import sys

import gpupy
import numpy as np
import pytest

PROGRAMS_DIR = pathlib.Path(__file__).resolve().parents[2] / "examples" / "numpy_programs" / "data"
PROGRAMS = sorted(p.stem for p in PROGRAMS_DIR.glob("*.py") if not p.stem.startswith("_"))

# Per-program tolerances (rtol, atol) for floating-point results; the default suits float64 work
# whose summation order may differ from NumPy's. image_filters builds a float32 summed-area table:
# NumPy's blurred/Sobel values are 1.5e-5 from a float64 run, emu's parallel scan 2.1e-5.
TOLERANCES = {"image_filters": (1e-4, 5e-5), "image_masks": (1e-6, 1e-6)}
# Results of random draws: gpupy's streams differ from NumPy's by design (docs/numpy_differences.md,
# "Random numbers"), so these are compared as statistics with an absolute tolerance.
RANDOM_RESULTS = {
    ("train_test_split", "boot_mean"): 0.05,
    ("train_test_split", "boot_spread"): 0.02,
}


def _load(name):
    if str(PROGRAMS_DIR) not in sys.path:
        sys.path.insert(0, str(PROGRAMS_DIR))
    return importlib.import_module(name)


def _host(x):
    return gpupy.asnumpy(x) if isinstance(x, gpupy.ndarray) else x


def _compare(ref, got, where, rtol, atol):
    if isinstance(ref, (np.ndarray, np.generic)):
        assert isinstance(got, (gpupy.ndarray, np.generic)), f"{where}: got {type(got).__name__}"
        g = np.asarray(_host(got))
        assert g.dtype == ref.dtype, f"{where}: dtype {g.dtype}, NumPy {ref.dtype}"
        assert g.shape == np.shape(ref), f"{where}: shape {g.shape}, NumPy {np.shape(ref)}"
        if ref.dtype.kind in "fc":
            np.testing.assert_allclose(g, ref, rtol=rtol, atol=atol, equal_nan=True, err_msg=where)
        else:
            np.testing.assert_array_equal(g, ref, err_msg=where)
    elif isinstance(ref, (list, tuple)):
        assert type(got) is type(ref) and len(got) == len(ref), f"{where}: {got!r} vs {ref!r}"
        for i, (r, g) in enumerate(zip(ref, got, strict=True)):
            _compare(r, g, f"{where}[{i}]", rtol, atol)
    elif isinstance(ref, dict):
        assert type(got) is dict and list(got) == list(ref), f"{where}: keys {list(got)}"
        for k, r in ref.items():
            _compare(r, got[k], f"{where}[{k!r}]", rtol, atol)
    elif isinstance(ref, float):
        assert type(got) is float, f"{where}: got {type(got).__name__}, NumPy float"
        assert got == pytest.approx(ref, rel=rtol, abs=atol), where
    else:  # bool, int, str: exact, including the type
        assert type(got) is type(ref) and got == ref, f"{where}: {got!r}, NumPy {ref!r}"


@pytest.mark.parametrize("name", PROGRAMS)
def test_program_matches_numpy(name, device_name):
    program = _load(name)
    expected = program.run(np)
    got = program.run(gpupy)
    assert sorted(got) == sorted(expected)
    rtol, atol = TOLERANCES.get(name, (1e-9, 1e-10))
    for key, ref in expected.items():
        where = f"{name}.{key}"
        if (name, key) in RANDOM_RESULTS:
            tol = RANDOM_RESULTS[name, key]
            np.testing.assert_allclose(_host(got[key]), ref, rtol=0, atol=tol, err_msg=where)
            continue
        _compare(ref, got[key], where, rtol, atol)
        if isinstance(got[key], gpupy.ndarray):
            assert got[key].device == gpupy.Device(device_name), f"{where}: left the device"


def test_programs_found():
    assert len(PROGRAMS) == 12, PROGRAMS
