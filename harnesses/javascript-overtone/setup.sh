#!/usr/bin/env bash
# Prepare the original Overtone code for the harness: the tree of commit 6b673e1 (where the strategic compact
# feature landed) and its one runtime dependency (gray-matter, from the npm registry).
#
#   harnesses/javascript-overtone/setup.sh DEST            # clone github.com/ryu111/overtone into DEST
#   OVERTONE_MIRROR=/path/to/bare.git harnesses/javascript-overtone/setup.sh DEST   # from a local mirror
#
# Then run the harness with OVERTONE_SRC=DEST. Nothing of the original enters this repository.
set -euo pipefail

COMMIT=6b673e1eb524574229d6c06239cf99da8cec0075
DEST=${1:?usage: setup.sh DEST (the directory to hold the Overtone tree)}

if [ -f "$DEST/.overtone-commit" ] && [ "$(cat "$DEST/.overtone-commit")" = "$COMMIT" ] \
  && [ -d "$DEST/plugins/overtone/node_modules/gray-matter" ]; then
  echo "Overtone $COMMIT is ready in $DEST"
  exit 0
fi

mkdir -p "$DEST"
if [ -n "${OVERTONE_MIRROR:-}" ]; then
  git --git-dir="$OVERTONE_MIRROR" archive "$COMMIT" | tar -x -C "$DEST"
else
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  git clone --quiet --filter=blob:none --no-checkout https://github.com/ryu111/overtone "$tmp/repo"
  git -C "$tmp/repo" archive "$COMMIT" | tar -x -C "$DEST"
fi

if ! command -v npm >/dev/null 2>&1; then
  echo "setup.sh: npm is missing; install node >= 20 (it brings npm) and run again" >&2
  exit 1
fi
# Runtime dependencies of the plugin only: no dev or peer dependencies, no install scripts.
(cd "$DEST/plugins/overtone" && npm install --omit=dev --omit=peer --legacy-peer-deps --ignore-scripts \
  --no-audit --no-fund --no-package-lock --loglevel=error)
echo "$COMMIT" > "$DEST/.overtone-commit"
echo "Overtone $COMMIT is ready in $DEST"
