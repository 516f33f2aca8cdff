#!/usr/bin/env bash
# Library lines per algorithm folder (libalgos/src/<name>/ + libalgos/include/cccl_cache/
# algos/<name>/) and of the shared core, split by cloc into code, comment and blank
# lines, as a Markdown table (ARCHITECTURE.md's size table is this output).
# Usage: scripts/count_algo_lines.sh   (needs cloc: scripts/install-deps.sh)
set -euo pipefail
cd "$(dirname "$0")/../libalgos"
command -v cloc >/dev/null || { echo "count_algo_lines: cloc not found (apt-get install cloc)" >&2; exit 1; }

# cloc's CSV sum line: files,SUM,blank,comment,code.
count() {
  cloc --quiet --csv --hide-rate "$@" | awk -F, '$2 == "SUM" { print $1, $3, $4, $5 }'
}
row() {
  read -r files blank comment code < <(count "${@:2}")
  printf '| %s | %s | %s | %s | %s | %s |\n' "$1" "$files" "$code" "$comment" "$blank" \
    $((code + comment + blank))
}

echo "| folder | files | code | comment | blank | total |"
echo "|---|---|---|---|---|---|"
for dir in src/*/; do
  name=$(basename "$dir")
  [ "$name" = core ] && continue
  [ -d "include/cccl_cache/algos/$name" ] || continue  # an algorithm has public headers
  row "$name" "src/$name" "include/cccl_cache/algos/$name"
done
row "core (shared)" src/core include/cccl_cache/algos/core
