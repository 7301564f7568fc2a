#!/usr/bin/env bash
# Compiles the differential test programs (tests/erl/*.erl) with the real erlc into $1.
set -euo pipefail
out=${1:?output dir}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
shopt -s nullglob
srcs=("$here"/erl/*.erl)
[ ${#srcs[@]} -eq 0 ] && exit 0
# Recompile only what changed.
stale=()
for f in "${srcs[@]}"; do
  b="$out/$(basename "${f%.erl}").beam"
  if [ ! -f "$b" ] || [ "$f" -nt "$b" ]; then stale+=("$f"); fi
done
[ ${#stale[@]} -eq 0 ] && exit 0
erlc -W0 -o "$out" "${stale[@]}"
