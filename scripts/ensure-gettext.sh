#!/usr/bin/env bash
# Make sure GNU gettext's msgfmt is installed (compilemessages needs it to build the .mo
# files from the .po files in locale/): install Debian's gettext when missing and we may.
set -euo pipefail

command -v msgfmt >/dev/null && exit 0
echo "msgfmt is missing; installing gettext from Debian's packages..."
if [ "$(id -u)" = 0 ]; then SUDO=""; elif command -v sudo >/dev/null; then SUDO="sudo -n"; else
  echo "error: msgfmt missing and no root to install it; install GNU gettext (apt-get install gettext)" >&2; exit 1; fi
$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq gettext >/dev/null
command -v msgfmt >/dev/null || { echo "error: gettext installed but msgfmt not found" >&2; exit 1; }
