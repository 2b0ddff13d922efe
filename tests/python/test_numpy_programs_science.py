"""Science and engineering NumPy programs (examples/numpy_programs/science) run unchanged with
gpupy on the device under test and give NumPy's values, dtypes and shapes. Each program states
its tolerances: TOLERANCE for all its results, TOLERANCES for single ones (the random-number
program compares statistics, as gpupy's streams differ from NumPy's by design)."""

import pathlib

import pytest
from numpy_program_check import assert_on_device, compare, run_both

PROGRAMS_DIR = (
    pathlib.Path(__file__).resolve().parents[2] / "examples" / "numpy_programs" / "science"
)
PROGRAMS = sorted(p.stem for p in PROGRAMS_DIR.glob("*.py") if not p.stem.startswith("_"))


@pytest.mark.parametrize("name", PROGRAMS)
def test_program_matches_numpy(name, device_name):
    program, expected, got = run_both(PROGRAMS_DIR, name)
    default = getattr(program, "TOLERANCE", (1e-10, 1e-12))
    tolerances = getattr(program, "TOLERANCES", {})
    for key, ref in expected.items():
        where = f"{name}.{key}"
        rtol, atol = tolerances.get(key, default)
        compare(ref, got[key], where, rtol, atol)
        assert_on_device(got[key], where, device_name)


def test_programs_found():
    assert len(PROGRAMS) == 20, PROGRAMS
