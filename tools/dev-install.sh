#!/usr/bin/env bash
# Install the working tree into a private library without compiling inside
# src/ (several developers may build at once): tools/dev-install.sh LIBDIR
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
lib=${1:-$root/.Rlib}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$lib"
(cd "$tmp" && R CMD build --no-build-vignettes --no-manual "$root" >/dev/null && R CMD INSTALL --library="$lib" dpfda_*.tar.gz >"$tmp/install.log" 2>&1) || { cat "$tmp/install.log"; exit 1; }
echo "installed dpfda into $lib"
