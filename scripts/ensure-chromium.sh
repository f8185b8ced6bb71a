#!/usr/bin/env bash
# Browser tests drive Debian's chromium through Playwright (a test tool's own browser
# download does not work on these machines).
set -euo pipefail
command -v chromium >/dev/null && exit 0
echo "Installing Debian's chromium for the browser tests..."
if [ "$(id -u)" = 0 ]; then SUDO=""; elif command -v sudo >/dev/null; then SUDO="sudo -n"; else
  echo "error: chromium missing and no root to install it (apt-get install chromium)" >&2; exit 1; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
command -v chromium >/dev/null
