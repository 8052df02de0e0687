#!/usr/bin/env bash
# Checks ./hongbao bench against a load generator that is not ours: wrk.
#
# Starts `./hongbao serve` on CPU 0 (its embedded Redis and PostgreSQL with it), runs
# `./hongbao bench --url` against it (hot scenario, generator on CPU 1), then a warm-up and WRK_RUNS
# wrk runs on CPU 1 against the same service: each run a fresh packet of 100,000 shares, a new user
# per request (scripts/wrk/grab.lua; scripts/wrk/MintTokens.java signs the tokens with the
# service's own code), concurrency 64 and payouts paused, as in the bench's windows; Redis
# rewrites its append-only file before each run, so that a rewrite seldom overlaps one. For each
# run it prints GRABBED/s and the CPU µs per GRABBED of the service, Redis and PostgreSQL, read
# from /proc as the bench reads them. At the end the payouts drain and the service's reconciler
# must find nothing.
#
#   bash scripts/wrk-check.sh [OUT_DIR]        (WRK_RUNS=3, WRK_SECONDS=4 by default)
#
# Needs wrk (installed from the distribution's packages when missing, as .ci/run installs its
# browser) and a JDK >= 21, which ./hongbao finds. Listens on 127.0.0.1 only.
set -euo pipefail
cd "$(dirname "$0")/.."

out=${1:-$(mktemp -d /tmp/hongbao-wrk-check.XXXXXX)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
runs=${WRK_RUNS:-3}
# A packet holds at most 100,000 shares, so a run must end before they do: 4 s leaves room for
# 25,000 GRABBED/s (a quiet 2-core Xeon box made 19,269). A run that empties its packet is reported
# and fails the check.
seconds=${WRK_SECONDS:-4}
port=${WRK_PORT:-18480}
shares=100000
base=http://127.0.0.1:$port
secret=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
alphabet=$(echo {a..z} {A..Z} {0..9} | tr ' ' '\n' | shuf | tr -d '\n')
hz=$(getconf CLK_TCK)

if ! command -v wrk >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q && apt-get install -y -q wrk
fi

echo "wrk-check: output in $out"
# Dev mode on loopback: the gateway simulator stands in for the payment gateway (nothing is
# withdrawn here), which the service allows only in dev mode.
HONGBAO_PORT=$port HONGBAO_BIND=127.0.0.1 HONGBAO_JWT_SECRET=$secret HONGBAO_DEV_MODE=true \
  HONGBAO_ID_ALPHABET=$alphabet \
  HONGBAO_MAX_SHARES=$shares HONGBAO_DATA_DIR=$out/data \
  setsid taskset -c 0 ./hongbao serve --fresh >"$out/serve.log" 2>&1 &
service=$!
trap 'kill "$service" 2>/dev/null || true; wait "$service" 2>/dev/null || true' EXIT
for _ in $(seq 120); do
  curl -sf "$base/health" >/dev/null && break
  if ! kill -0 "$service" 2>/dev/null; then
    echo "wrk-check: serve exited, see $out/serve.log" >&2
    exit 1
  fi
  sleep 1
done
curl -sf "$base/health" >/dev/null || { echo "wrk-check: serve did not answer" >&2; exit 1; }

redis=$(pgrep -P "$service" -f redis-server)
redis_port=$(tr '\0' ' ' </proc/"$redis"/cmdline | grep -o '127.0.0.1:[0-9]*' | cut -d: -f2)
postmaster=$(pgrep -o -f "postgres -D $out/data/postgres")

# MintTokens signs with the service's own Tokens class, run by the JDK the launcher chose for serve.
java=$(readlink "/proc/$service/exe")
mint() {
  taskset -c 1 "$java" -cp hongbao-app/target/hongbao.jar scripts/wrk/MintTokens.java "$secret" "$@"
}
admin=$(mint ops 1 admin)
sender=$(mint sender 1)
call() { # METHOD PATH TOKEN [BODY [IDEMPOTENCY_KEY]]
  local headers=(-H "Authorization: Bearer $3" -H 'Content-Type: application/json')
  [ -n "${5:-}" ] && headers+=(-H "Idempotency-Key: $5")
  curl -sf -X "$1" "$base$2" "${headers[@]}" ${4:+-d "$4"}
}
call POST /api/v1/admin/topups "$admin" '{"userId":"sender1","amount":100000000000}' topup \
  >/dev/null

# CPU clock ticks (user + system) of the processes given, and of PostgreSQL's.
ticks() { for pid in "$@"; do awk '{sub(/^.*\) /, ""); print $12 + $13}' /proc/"$pid"/stat; done; }
postgres_ticks() {
  ticks "$postmaster" $(pgrep -P "$postmaster") 2>/dev/null | awk '{s += $1} END {print s}'
}

per_grab() { awk -v d="$1" -v g="$grabbed" -v hz="$hz" 'BEGIN {printf "%.1f", d * 1e6 / hz / g}'; }
# A rewrite of the append-only file is a child of Redis that shares CPU 0 and makes the parent pay
# for copied pages. With payouts paused every run grows the file by its grabs, enough to start a
# rewrite in the middle of a run; one forced before each run, and waited for, leaves the file too
# large for the run to double it.
rewrite_now() {
  exec 3<>"/dev/tcp/127.0.0.1/$redis_port"
  printf 'BGREWRITEAOF\r\n' >&3
  head -c 1 <&3 >/dev/null
  exec 3<&-
  sleep 1
  for _ in $(seq 120); do
    pgrep -P "$redis" >/dev/null || return 0
    sleep 1
  done
  echo "wrk-check: Redis still rewriting after 120 s; measuring regardless" >&2
}

echo "wrk-check: ./hongbao bench --url (its own warm-up, then measured windows)"
./hongbao bench --url "$base" --jwt-secret "$secret" --redis-url "redis://127.0.0.1:$redis_port" \
  --service-pid "$service" --postgres-pid "$postmaster" --scenario hot --shares 20000 --runs 3 \
  --pin 0:1 --out "$out/bench" >"$out/bench.log" 2>&1
grep -E '^\| (grabs/s|CPU µs per grab|latency ms|reconciled)' "$out/bench/summary.md" || true

printf '\n| wrk run | GRABBED/s | p50 / p99 ms | service µs/GRABBED | Redis | PostgreSQL |\n'
printf '| --- | --- | --- | --- | --- | --- |\n'
# Run 0 warms the service up for wrk's requests, which are not the bench client's: shown, not
# counted.
for run in $(seq 0 "$runs"); do
  mint "w${run}u" "$shares" >"$out/tokens$run.txt"
  packet=$(call POST /api/v1/packets "$sender" \
    "{\"amount\":$((shares * 100)),\"count\":$shares,\"type\":\"LUCKY\"}" "wrk$run" |
    sed -E 's/.*"id":"([^"]+)".*/\1/')
  call PUT /api/v1/admin/switches/payouts "$admin" '{"enabled":false}' >/dev/null
  rewrite_now
  before=($(ticks "$service" "$redis") $(postgres_ticks))
  taskset -c 1 wrk -t1 -c64 -d"${seconds}s" -s scripts/wrk/grab.lua "$base" -- \
    "$packet" "$out/tokens$run.txt" 1 >"$out/wrk$run.log" 2>&1
  after=($(ticks "$service" "$redis") $(postgres_ticks))
  rewriting=$(pgrep -P "$redis" >/dev/null && echo " (Redis rewriting its file at the end)" || true)
  line=$(grep '^wrk:' "$out/wrk$run.log")
  grabbed=$(echo "$line" | awk '{print $2}')
  name=$([ "$run" = 0 ] && echo warm-up || echo "$run")
  printf '| %s%s | %s | %s / %s | %s | %s | %s |\n' "$name" "$rewriting" \
    "$(echo "$line" | awk '{print $7}')" \
    "$(echo "$line" | sed -E 's/.*p50 ([0-9.]+) ms.*/\1/')" \
    "$(echo "$line" | sed -E 's/.*p99 ([0-9.]+) ms.*/\1/')" \
    "$(per_grab $((after[0] - before[0])))" "$(per_grab $((after[1] - before[1])))" \
    "$(per_grab $((after[2] - before[2])))"
  if [ "$(echo "$line" | awk '{print $4}')" != "0" ]; then
    echo "wrk-check: run $run had answers other than GRABBED (the packet emptied: lower" \
      "WRK_SECONDS): $line" >&2
    failed=1
  fi
done

call PUT /api/v1/admin/switches/payouts "$admin" '{"enabled":true}' >/dev/null
for _ in $(seq 300); do
  backlog=$(curl -sf "$base/metrics" | awk '/^hongbao_payout_backlog / {print $2}')
  [ "${backlog%.*}" = "0" ] && break
  sleep 1
done
echo
echo "wrk-check: payout backlog ${backlog:-unknown}; reconciliation:"
call GET /api/v1/admin/reconciliation "$admin" | tee "$out/reconciliation.json" | head -c 400
echo
grep -q '"ok":true' "$out/reconciliation.json" && [ -z "${failed:-}" ]
