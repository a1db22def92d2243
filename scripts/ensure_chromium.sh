#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests, and a CJK font so that screenshots of the
# Korean pages show Hangul, when they are missing and we are root.
# Under CI (CI=true) a Chromium that cannot be had is a failure, not a skip.
set -euo pipefail
CHROMIUM=${ATTNVIZ_CHROMIUM:-/usr/bin/chromium}
CJK_FONT=/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
if [ -x "$CHROMIUM" ] && [ -e "$CJK_FONT" ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium and fonts-noto-cjk for the browser tests..."
  # A fresh machine's package lists may be empty.
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null
  exit 0
fi
if [ ! -x "$CHROMIUM" ] && [ "${CI:-}" = "true" ]; then
  echo "error: $CHROMIUM is missing and cannot be installed (not root): the browser tests need it" >&2
  exit 1
fi
if [ ! -x "$CHROMIUM" ]; then
  echo "warning: $CHROMIUM is missing; the browser tests (-m e2e) will be skipped" >&2
fi
if [ ! -e "$CJK_FONT" ]; then
  echo "warning: fonts-noto-cjk is missing; Korean screenshots will show boxes" >&2
fi
