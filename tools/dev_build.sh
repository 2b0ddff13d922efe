#!/usr/bin/env bash
# Incremental developer build: compiles into build/dev (or $1) and copies the extension module into
# python/gpupy, so `PYTHONPATH=python python -m pytest tests/python` tests the working tree.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${1:-build/dev}
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-Release} \
  -DGPUPY_DEV_INPLACE=ON -DGPUPY_BUILD_TESTS=${GPUPY_BUILD_TESTS:-ON} \
  -DGPUPY_CUDA=${GPUPY_CUDA:-OFF} -DPython_EXECUTABLE="$(command -v python3)" >/dev/null
cmake --build "$build_dir" -j "${JOBS:-2}"
