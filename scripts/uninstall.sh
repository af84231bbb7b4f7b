#!/bin/sh
# Shipped as PREFIX/share/leadport/uninstall.sh (make stage): removes a LeadPort installed from
# the tarball (tar -xzf … -C PREFIX --strip-components=1) or with `make install`, that is every
# file listed in PREFIX/share/leadport/installed-files (the list itself and this script among
# them), then the folders only LeadPort uses, when empty. PREFIX is the folder two above this
# script's. Usage: sudo /usr/local/share/leadport/uninstall.sh
set -eu
prefix="$(cd "$(dirname "$0")/../.." && pwd)"
list="$prefix/share/leadport/installed-files"
[ -f "$list" ] || { echo "uninstall.sh: $list is missing, so nothing is removed" >&2; exit 1; }
while IFS= read -r f; do
  case "$f" in
    ''|/*|..*|*/../*) echo "uninstall.sh: $f is not a file under $prefix; left alone" >&2; continue ;;
  esac
  rm -f "$prefix/$f" && echo "removed $prefix/$f"
done < "$list"
for d in share/leadport/mappings share/leadport share/doc/leadport; do
  rmdir "$prefix/$d" 2>/dev/null || true
done
