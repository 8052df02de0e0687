#!/usr/bin/env bash
# Profiles the service while `hongbao bench` measures it: runs the bench with the given arguments,
# attaches async-profiler (tools.profiler:async-profiler 4.2 from Maven Central, which carries the
# native library) to the service process once the warm-up is over, and stops it when the measured
# windows are done, so that neither JIT compilation nor the payout drain is in the picture.
#
#   scripts/profile.sh OUT.html --embedded --shares 20000 --runs 3 --pin 0:1 --out /tmp/bench
#
# OUT ending in .html is a flame graph; .collapsed gives folded stacks for grep and sort.
# PROFILE_EVENT=cpu (default), wall, alloc or lock.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
output="$(realpath -m "$1")"; shift
event="${PROFILE_EVENT:-cpu}"
version=4.2
jar="$HOME/.m2/repository/tools/profiler/async-profiler/$version/async-profiler-$version.jar"
lib_dir="${TMPDIR:-/tmp}/async-profiler-$version"
lib="$lib_dir/libasyncProfiler.so"
if [ ! -f "$lib" ]; then
  [ -f "$jar" ] || mvn -B -q dependency:get -Dartifact="tools.profiler:async-profiler:$version"
  mkdir -p "$lib_dir"
  unzip -o -q -j "$jar" "linux-$(uname -m | sed 's/x86_64/x64/; s/aarch64/arm64/')/libasyncProfiler.so" -d "$lib_dir"
fi
# jcmd of the JDK ./hongbao runs the service on.
java_home="$(dirname "$(dirname "$(readlink -f "$("$root/scripts/find-jdk.sh")")")")"
jcmd="$java_home/bin/jcmd"

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
"$root/hongbao" bench "$@" > "$log" 2>&1 &
bench=$!
pid=""
started=""
while kill -0 "$bench" 2>/dev/null; do
  [ -z "$pid" ] && pid="$(sed -n 's/^bench: pids service=\([0-9]*\).*/\1/p' "$log" | head -1)"
  if [ -n "$pid" ] && [ -z "$started" ] && grep -q '^run 1' "$log"; then
    # jcmd would read key=value as its own arguments: the agent's options go in quotes.
    "$jcmd" "$pid" JVMTI.agent_load "$lib" "\"start,event=$event,interval=1ms\"" > /dev/null
    started=1
    echo "profile.sh: profiling service $pid ($event)" >&2
  fi
  if [ -n "$started" ] && grep -q '^windows: done' "$log"; then
    "$jcmd" "$pid" JVMTI.agent_load "$lib" "\"stop,file=$output\"" > /dev/null
    echo "profile.sh: wrote $output" >&2
    break
  fi
  sleep 0.2
done
wait "$bench" || true
grep -E '^(warm-up|run|payout drain|bench:)' "$log" >&2 || true
