#!/bin/sh
# Prepare a checkout of the original Synapse Agent for the compliance run: bun from the npm registry into
# a local prefix here (git-ignored), the checkout's dependencies installed without running their scripts.
# Usage: harnesses/typescript-synapse-agent/setup.sh /path/to/Synapse-Agent-checkout
set -eu
SRC=${1:?usage: setup.sh SYNAPSE_AGENT_SRC}
HERE=$(cd "$(dirname "$0")" && pwd)
BUN_VERSION=1.3.5
PREFIX="$HERE/.bun-prefix"
BUN="$PREFIX/node_modules/bun/bin/bun.exe"

if [ ! -x "$BUN" ] || [ "$("$BUN" --version 2>/dev/null)" != "$BUN_VERSION" ]; then
    mkdir -p "$PREFIX"
    # The package's postinstall links the platform binary it ships in an optional dependency.
    npm install --silent --no-audit --no-fund --prefix "$PREFIX" "bun@$BUN_VERSION"
fi
"$BUN" --version >/dev/null

# bun.lock pins two tarballs (node-pty, node-addon-api) to a mirror host; the integrity hashes are those
# of the npm registry's tarballs, so point them at the registry this machine uses.  Only the checkout is
# changed, never this repository.
REGISTRY=$(npm config get registry 2>/dev/null | sed 's:/*$::')
if grep -q 'https://registry.npmmirror.com' "$SRC/bun.lock"; then
    sed -i "s#https://registry.npmmirror.com#$REGISTRY#g" "$SRC/bun.lock"
fi
(cd "$SRC" && "$BUN" install --ignore-scripts)
echo "bun $("$BUN" --version) ready: $BUN"
echo "original at $SRC, commit $(git -C "$SRC" rev-parse HEAD 2>/dev/null || echo unknown)"
