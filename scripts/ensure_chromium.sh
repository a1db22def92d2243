#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests when it is missing and we are root.
# Under CI (CI=true) a Chromium that cannot be had is a failure, not a skip.
set -euo pipefail
CHROMIUM=${ATTNVIZ_CHROMIUM:-/usr/bin/chromium}
if [ -x "$CHROMIUM" ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium for the browser tests..."
  # A fresh machine's package lists may be empty.
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  exit 0
fi
if [ "${CI:-}" = "true" ]; then
  echo "error: $CHROMIUM is missing and cannot be installed (not root): the browser tests need it" >&2
  exit 1
fi
echo "warning: $CHROMIUM is missing; the browser tests (-m e2e) will be skipped" >&2
