#!/usr/bin/env bash
# Installs Debian's haproxy for `make serve REPLICAS=N` and its tests, when it is missing and
# we are root. Under CI (CI=true) a haproxy that cannot be had is a failure, not a skip.
set -euo pipefail
if command -v haproxy >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's haproxy..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null
  exit 0
fi
if [ "${CI:-}" = "true" ]; then
  echo "error: haproxy is missing and cannot be installed (not root)" >&2
  exit 1
fi
echo "warning: haproxy is missing; replicas (make serve REPLICAS=2) and their tests need it" >&2
