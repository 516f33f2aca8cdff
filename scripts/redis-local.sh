# Sourced by benchmark harnesses: a throw-away redis-server on 127.0.0.1 on a free port,
# no persistence, for one run. Needs bash (/dev/tcp) and python3 (a free port).
#   redis_start [BINARY]   starts it (BINARY, else $REDIS_SERVER, else redis-server on
#                          PATH); sets REDIS_PID, REDIS_PORT and REDIS_URL
#                          (redis://127.0.0.1:PORT, no database); fails after 5 s
#                          without an answer to PING
#   redis_stop             kills it and waits for it
# A carried binary may need its own libraries: set REDIS_LD_LIBRARY_PATH (used for
# redis-server only, so that nothing else loads them).

redis_ping() {  # redis_ping PORT: 0 when the server answers +PONG
  local reply=""
  { exec 9<>"/dev/tcp/127.0.0.1/$1"; } 2>/dev/null || return 1
  printf 'PING\r\n' >&9
  read -r -t 1 reply <&9 || true
  exec 9<&- 9>&-
  [[ "$reply" == "+PONG"* ]]
}

redis_start() {
  local bin=${1:-${REDIS_SERVER:-$(command -v redis-server || true)}}
  if [[ -z "$bin" || ! -x "$bin" ]]; then
    echo "redis_start: no redis-server binary (give one, or set REDIS_SERVER)" >&2
    return 1
  fi
  REDIS_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  LD_LIBRARY_PATH=${REDIS_LD_LIBRARY_PATH:-${LD_LIBRARY_PATH:-}} "$bin" --port "$REDIS_PORT" \
    --bind 127.0.0.1 --save "" --appendonly no --daemonize no --protected-mode yes \
    --logfile "" >"${REDIS_LOG:-/dev/null}" 2>&1 &
  REDIS_PID=$!
  REDIS_URL=redis://127.0.0.1:$REDIS_PORT
  local i
  for ((i = 0; i < 50; ++i)); do
    if redis_ping "$REDIS_PORT"; then
      echo "redis-server $("$bin" --version 2>/dev/null | awk '{print $3}') pid $REDIS_PID on 127.0.0.1:$REDIS_PORT"
      return 0
    fi
    kill -0 "$REDIS_PID" 2>/dev/null || break
    sleep 0.1
  done
  echo "redis_start: $bin did not answer on 127.0.0.1:$REDIS_PORT (log: ${REDIS_LOG:-none})" >&2
  redis_stop
  return 1
}

redis_stop() {
  [[ -n "${REDIS_PID:-}" ]] || return 0
  kill "$REDIS_PID" 2>/dev/null
  wait "$REDIS_PID" 2>/dev/null
  REDIS_PID=
}
