#!/usr/bin/env bash
# Prints the java binary of the newest JDK >= 21 on this machine: JAVA_HOME's, the one on the PATH,
# or one under /usr/lib/jvm, /opt/java or /opt/jdk*; fails when there is none. ./hongbao sources it
# to run the service; .ci/run runs Maven on it (so the app's tests run in two JVMs: see
# hongbao-app/pom.xml); bench.sh and profile.sh name the JDK the service runs on.
set -euo pipefail

java_major() {
  "$1" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {print $2}' | cut -d. -f1
}

find_jdk() {
  local candidates=()
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME/bin/java")
  command -v java >/dev/null 2>&1 && candidates+=("$(command -v java)")
  for dir in /usr/lib/jvm/* /opt/java/* /opt/jdk*; do
    [ -x "$dir/bin/java" ] && candidates+=("$dir/bin/java")
  done
  local best="" best_major=0 major
  for candidate in "${candidates[@]}"; do
    major="$(java_major "$candidate" 2>/dev/null || echo 0)"
    if [ "${major:-0}" -ge 21 ] && [ "$major" -gt "$best_major" ]; then
      best="$candidate" best_major="$major"
    fi
  done
  [ -n "$best" ] || { echo "hongbao: no JDK >= 21 found (set JAVA_HOME)" >&2; return 1; }
  echo "$best"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  find_jdk
fi
