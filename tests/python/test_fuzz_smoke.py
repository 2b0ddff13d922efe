"""A short run of the differential fuzzer (tools/fuzz_numpy.py): 200 fixed cases against NumPy."""

import io
import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[2] / "tools"


def test_fuzzer_finds_no_mismatch_in_200_fixed_cases(device_name):
    sys.path.insert(0, str(TOOLS))
    try:
        import fuzz_numpy
    finally:
        sys.path.remove(str(TOOLS))
    report = io.StringIO()
    mismatches = fuzz_numpy.run(device_name, seed=1, seconds=60, cases=200, out=report)
    assert mismatches == 0, report.getvalue()
    assert "200 cases" in report.getvalue()
