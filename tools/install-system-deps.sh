#!/usr/bin/env bash
# Install the Debian packages named as arguments that are missing (used by the
# Makefile). Needs root and apt-get; elsewhere it names what to install and
# goes on, so the R side can still skip what it cannot use.
set -euo pipefail
missing=()
for p in "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if command -v apt-get >/dev/null && [ "$(id -u)" -eq 0 ]; then
  echo "apt-get install: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "dpfda: please install these system packages (Debian names): ${missing[*]}" >&2
fi
