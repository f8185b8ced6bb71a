#!/usr/bin/env bash
# Browser tests drive Debian's chromium through Playwright (a test tool's own browser
# download does not work on these machines): its headless shell, the same chromium build
# without the desktop browser around it (~30 % less CPU a page than `chromium --headless`,
# measured on the axe crawl; tests/fixtures/browsers.py).
set -euo pipefail
command -v chromium-headless-shell >/dev/null && exit 0
echo "Installing Debian's chromium headless shell for the browser tests..."
if [ "$(id -u)" = 0 ]; then SUDO=""; elif command -v sudo >/dev/null; then SUDO="sudo -n"; else
  echo "error: chromium-headless-shell missing and no root to install it" \
    "(apt-get install chromium-headless-shell)" >&2; exit 1; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium-headless-shell >/dev/null
command -v chromium-headless-shell >/dev/null
