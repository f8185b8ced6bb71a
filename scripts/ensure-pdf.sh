#!/usr/bin/env bash
# PDF downloads: WeasyPrint (a Python package, in uv.lock) draws text with Debian's pango and
# subsets fonts with harfbuzz (the libraries WeasyPrint's install guide lists for Debian 11+);
# the tests turn a PDF page into a PNG with poppler's pdftoppm.
set -euo pipefail
LIBS=(libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core)
missing=()
for p in "${LIBS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
command -v pdftoppm >/dev/null || missing+=(poppler-utils)
[ ${#missing[@]} = 0 ] && exit 0
echo "Installing ${missing[*]} for the PDF downloads..."
if [ "$(id -u)" = 0 ]; then SUDO=""; elif command -v sudo >/dev/null; then SUDO="sudo -n"; else
  echo "error: ${missing[*]} missing and no root to install them (apt-get install ${missing[*]})" >&2; exit 1; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
command -v pdftoppm >/dev/null
