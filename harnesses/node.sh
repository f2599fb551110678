#!/usr/bin/env bash
# Print the path of a node >= 20 for the JavaScript servers: the one on PATH (or $NODE), else one installed
# from the npm registry into harnesses/.node/ (git-ignored). Says what is missing when neither works.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ok() { "$1" -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' 2>/dev/null; }

candidate=${NODE:-node}
if command -v "$candidate" >/dev/null 2>&1 && ok "$candidate"; then
  command -v "$candidate"
  exit 0
fi
local_node="$here/.node/node_modules/.bin/node"
if [ -x "$local_node" ] && ok "$local_node"; then
  echo "$local_node"
  exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
  echo "node >= 20 is needed for the JavaScript servers, and neither node >= 20 nor npm is installed;" \
    "install node 20 or later (https://nodejs.org) or set NODE=/path/to/node" >&2
  exit 1
fi
echo "node >= 20 not found; installing node@20 from the npm registry into $here/.node" >&2
npm install --prefix "$here/.node" --no-audit --no-fund --loglevel=error node@20 >&2
ok "$local_node" || { echo "the node installed in $here/.node does not run" >&2; exit 1; }
echo "$local_node"
