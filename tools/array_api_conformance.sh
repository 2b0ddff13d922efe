#!/usr/bin/env bash
# Run the Array API conformance suite (data-apis/array-api-tests) against gpupy.
#   tools/array_api_conformance.sh SUITE_CHECKOUT [DEVICE] [extra pytest args...]
# SUITE_CHECKOUT: a checkout of array-api-tests (with its array-api submodule initialised).
# DEVICE: cpu (default), emu or cuda; selected through GPUPY_DEVICE.
# Known failures are listed, with reasons, in tools/array_api_xfails.txt.
set -euo pipefail
if [[ $# -lt 1 ]]; then
    echo "usage: $0 SUITE_CHECKOUT [cpu|emu|cuda] [pytest args...]" >&2
    exit 2
fi
suite=$(cd "$1" && pwd)
device=${2:-cpu}
shift $(( $# >= 2 ? 2 : 1 ))
case "$device" in
    cpu|emu|cuda) ;;
    *) echo "device must be cpu, emu or cuda, got '$device'" >&2; exit 2 ;;
esac
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$suite"
exec env ARRAY_API_TESTS_MODULE=gpupy GPUPY_DEVICE="$device" \
    PYTHONPATH="$repo/python${PYTHONPATH:+:$PYTHONPATH}" \
    python -m pytest array_api_tests -q -p no:cacheprovider \
    --max-examples=50 --hypothesis-seed=0 -W ignore \
    --xfails-file="$repo/tools/array_api_xfails.txt" "$@"
