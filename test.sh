#!/usr/bin/env bash
# jbeam: run the whole test suite (unit tests, loader checks over the installed OTP,
# the differential suite against the real erl). Benchmarks are separate: bench/run.
set -euo pipefail
cd "$(dirname "$0")"
. ./scripts/env.sh
mvn -B package
