#!/usr/bin/env bash
# Copies redis-server into DEST (default .devcarry/redis) for the GPU machine, which has
# none and no package index: the binary under the name it must run as (Debian's
# redis-server is a link to redis-check-rdb, which picks its role from argv[0]) and every
# library ldd resolves for it but glibc's and the C++ runtime's (newer there), in
# DEST/lib, a folder that only redis-server is pointed at (scripts/redis-local.sh,
# REDIS_LD_LIBRARY_PATH), so that no other program there loads these copies of OpenSSL
# or systemd's library. About 12 MB.
set -euo pipefail
dest=${1:-.devcarry/redis}
redis=$(command -v redis-server || true)
[[ -n "$redis" ]] || { echo "carry-redis: no redis-server here (apt-get install redis-server)" >&2; exit 1; }
rm -rf "$dest"
mkdir -p "$dest/lib"
cp -L "$redis" "$dest/redis-server"
strip --strip-all "$dest/redis-server" 2>/dev/null || true
skip='^(linux-vdso|ld-linux|libc\.|libm\.|libdl\.|libpthread\.|librt\.|libstdc\+\+|libgcc_s)'
ldd "$dest/redis-server" | awk '/=>/ {print $1, $3}' | while read -r name path; do
  [[ "$name" =~ $skip ]] && continue
  # One copy where prepare.sh carries it already (run.sh puts .devcarry/lib after DEST/lib).
  [[ -f ".devcarry/lib/$name" ]] && continue
  [[ -f "$path" ]] && cp -L "$path" "$dest/lib/$name"
done
# Check: it starts with only these libraries beside glibc's.
LD_LIBRARY_PATH="$dest/lib:.devcarry/lib" "$dest/redis-server" --version
du -sh "$dest"
