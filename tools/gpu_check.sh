#!/usr/bin/env bash
# One-shot check on a GPU machine: builds gpupy with CUDA, runs the C++ tests, the Python suite on
# --device=cuda (the files that exercise what only a GPU shows first, then the rest) and the
# benchmarks, keeps every log in benchmarks/results/ (copied to $OUT, if set, after every step, so
# that a run cut short still returns what it did), and prints a short summary last. Installs
# nothing from the network. Step limits add up to 8 min 20 s (docs/cuda_review.md, second review).
# GPUPY_CHECK_SKIP_BUILD=1 reuses an earlier build (a rerun on the same machine).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
python=${PYTHON:-python3}
stamp=$(date -u +%Y%m%dT%H%M%SZ)
results=benchmarks/results/gpu_check_$stamp
mkdir -p "$results"
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}
summary=()
note() { summary+=("$1"); }
# The results so far, to $OUT: what a command killed by its caller's limit leaves there comes back.
save() {
  if [ -n "${OUT:-}" ]; then
    mkdir -p "$OUT"
    cp -r "$results" "$OUT/"
  fi
}

# step NAME TIMEOUT_S COMMAND...: runs with a time limit, logs to $results/NAME.log.
step() {
  local name=$1 limit=$2
  shift 2
  local start=$SECONDS
  timeout --kill-after=10 "$limit" "$@" >"$results/$name.log" 2>&1
  local rc=$?
  local took=$((SECONDS - start))
  [ $rc -eq 124 ] && echo "(timed out after ${limit}s)" >>"$results/$name.log"
  echo "== $name: rc=$rc in ${took}s" | tee -a "$results/steps.txt"
  save
  return $rc
}

{
  date -u
  nvidia-smi -L 2>&1 || true
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 || true
  nvcc --version 2>&1 | tail -n 2
  "$python" -c 'import sys, numpy; print(sys.version); print("numpy", numpy.__version__)'
  for mod in cupy torch nanobind scikit_build_core pytest hypothesis; do
    "$python" -c "import $mod; print('$mod', getattr($mod, '__version__', '?'))" 2>/dev/null ||
      echo "$mod: not installed"
  done
} >"$results/environment.txt" 2>&1

# GoogleTest may be missing on the GPU machine; the C++ tests are then skipped, not fatal.
build_tests=OFF
if [ -e /usr/include/gtest/gtest.h ] || [ -e /usr/local/include/gtest/gtest.h ]; then
  build_tests=ON
fi

if [ -n "${GPUPY_CHECK_SKIP_BUILD:-}" ]; then
  note "build: skipped (GPUPY_CHECK_SKIP_BUILD)"
elif GPUPY_CUDA=ON GPUPY_BUILD_TESTS=$build_tests step build 230 "$python" -m pip install -v \
  --no-build-isolation --no-deps -Ccmake.define.CMAKE_CUDA_ARCHITECTURES=90 .; then
  note "build: ok ($(grep -c 'Building CUDA object' "$results/build.log") CUDA objects)"
else
  note "build: FAILED (see build.log)"
fi

step import 20 "$python" -c 'import gpupy, gpupy._core as c
print("cuda_is_available", c.cuda_is_available())
print("device_count", c.cuda_device_count())
print("properties", c.cuda_device_properties(0))
print("default_device", gpupy.get_default_device())'
note "import: $(grep -m1 cuda_is_available "$results/import.log" || echo FAILED)"

cpp_tests=$(ls -t build/*/gpupy_cpp_tests 2>/dev/null | head -n 1)
if [ -n "$cpp_tests" ]; then
  step cpp_tests 30 "$cpp_tests" --gtest_brief=1
  passed=$(grep -oE '\[  PASSED  \] [0-9]+' "$results/cpp_tests.log" | grep -oE '[0-9]+$')
  failed=$(grep -oE '\[  FAILED  \] [0-9]+ test' "$results/cpp_tests.log" | grep -oE '[0-9]+')
  note "C++ tests: ${passed:-0} passed, ${failed:-0} failed"
else
  note "C++ tests: not built (GoogleTest missing: $build_tests)"
fi

# Test files that need hypothesis are left out when it is not installed (no network here).
ignores=()
if ! "$python" -c 'import hypothesis' 2>/dev/null; then
  for f in $(grep -l -E '^\s*(import|from) hypothesis' tests/python/*.py 2>/dev/null); do
    ignores+=("--ignore=$f")
  done
  [ ${#ignores[@]} -gt 0 ] && note "pytest: hypothesis missing, skipped ${ignores[*]#--ignore=}"
fi
# Worker processes (each with its own CUDA context) when pytest-xdist is installed: the suite is
# host-bound (~24k tests, a few ms of Python each), so up to 8, half the cores.
workers=()
if "$python" -c 'import xdist' 2>/dev/null; then
  n=$(($(nproc) / 2))
  [ "$n" -gt 8 ] && n=8
  [ "$n" -ge 2 ] && workers=(-n "$n")
fi
# First the files that exercise what emu cannot show (streams, foreign memory, DLPack, NVRTC
# kernels, cuFFT/cuSOLVER, last-wins scatter, atomics), so that a time limit cuts the rest.
gpu_first=()
for f in tests/python/test_cuda_*.py tests/python/test_foreign_memory.py tests/python/test_dlpack.py \
  tests/python/test_user_kernels*.py tests/python/test_memory.py tests/python/test_histograms.py \
  tests/python/test_advanced_indexing.py; do
  [ -e "$f" ] && gpu_first+=("$f")
done
# The progress logs (tests/python/conftest.py) keep counts and failures when a limit cuts pytest.
run_pytest() {
  local name=$1 limit=$2
  shift 2
  local progress="$results/${name}_progress.txt"
  GPUPY_PROGRESS_LOG="$PWD/$progress" step "$name" "$limit" "$python" -m pytest --device=cuda \
    -q -p no:cacheprovider "${workers[@]}" "${ignores[@]}" --junitxml="$results/$name.xml" "$@"
  note "$name (cuda): $(grep -E ' in [0-9.]+s' "$results/$name.log" | tail -n 1 ||
    echo "no result line; progress log $(head -n 1 "$progress" 2>/dev/null)")"
  local failures
  failures=$( (grep -E '^(FAILED|ERROR) ' "$results/$name.log" ||
    grep -E '^FAILED ' "$progress" 2>/dev/null) | head -n 15)
  [ -n "$failures" ] && note "$failures"
}
run_pytest pytest_gpu_first 60 "${gpu_first[@]}"
run_pytest pytest 100 tests/python "${gpu_first[@]/#/--ignore=}"

step bench 60 "$python" -m gpupy.bench --device=cuda --targets
ratios=$(grep -E '[0-9.]+x$|n/a|target' "$results/bench.log")
[ -n "$ratios" ] || ratios="no benchmark rows: $(tail -n 1 "$results/bench.log")"

ldd_core=$(ldd "$("$python" -c 'import gpupy._core as c; print(c.__file__)' 2>/dev/null)" \
  2>/dev/null | grep -E 'libcuda|libcudart|libcublas' || true)
note "module links CUDA libraries: ${ldd_core:-none (as intended)}"

{
  echo "==== gpupy GPU check $stamp ($results)"
  printf '%s\n' "${summary[@]}"
  echo "benchmarks (numpy time / gpupy time):"
  echo "$ratios"
} | tee "$results/summary.txt"
save
