"""Data-processing and machine-learning NumPy programs (examples/numpy_programs/data) run unchanged
with gpupy on the device under test and give NumPy's values, dtypes and shapes."""

import pathlib

import numpy as np
import pytest
from numpy_program_check import assert_on_device, compare, host, run_both

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


@pytest.mark.parametrize("name", PROGRAMS)
def test_program_matches_numpy(name, device_name):
    program, expected, got = run_both(PROGRAMS_DIR, name)
    rtol, atol = TOLERANCES.get(name, (1e-9, 1e-10))
    for key, ref in expected.items():
        where = f"{name}.{key}"
        if (name, key) in RANDOM_RESULTS:
            tol = RANDOM_RESULTS[name, key]
            np.testing.assert_allclose(host(got[key]), ref, rtol=0, atol=tol, err_msg=where)
            continue
        compare(ref, got[key], where, rtol, atol)
        assert_on_device(got[key], where, device_name)


def test_programs_found():
    assert len(PROGRAMS) == 12, PROGRAMS
