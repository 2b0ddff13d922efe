#!/usr/bin/env bash
# Incremental developer build: compiles into build/dev (or $1) and copies the extension module into
# python/gpupy, so `PYTHONPATH=python python -m pytest tests/python` tests the working tree.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${1:-build/dev}
launcher=()
if command -v ccache >/dev/null; then
  # Relative paths in the cache let every checkout of the tree share compiled objects.
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(cd .. && pwd)} CCACHE_NOHASHDIR=true
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
fi
cmake -S . -B "$build_dir" -G Ninja "${launcher[@]}" -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-Release} \
  -DGPUPY_DEV_INPLACE=ON -DGPUPY_BUILD_TESTS=${GPUPY_BUILD_TESTS:-ON} \
  -DGPUPY_CUDA=${GPUPY_CUDA:-OFF} -DPython_EXECUTABLE="$(command -v python3)" >/dev/null
cmake --build "$build_dir" -j "${JOBS:-2}"
