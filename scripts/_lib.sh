# Shared helpers for scripts/serve and scripts/test (sourced, not run).
# Every step is idempotent and skips itself when its inputs did not change.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

log()  { printf '\033[1m==> %s\033[0m\n' "$*"; }
warn() { printf '\033[1;33mWARNING: %s\033[0m\n' "$*" >&2; }
die()  { printf '\033[1;31mERROR: %s\033[0m\n' "$*" >&2; exit 1; }

hash_of() { cat "$@" | sha256sum | cut -c1-32; }

pick_python() {
  # Python >= 3.11 (tomllib) for the tools and the venv.
  for py in python3 python3.14 python3.13 python3.12 python3.11; do
    if command -v "$py" >/dev/null 2>&1 &&
       "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
      PYTHON="$(command -v "$py")"; return 0
    fi
  done
  die "Python 3.11 or newer is required (python3 not found or too old)"
}

ensure_node_modules() {
  command -v npm >/dev/null 2>&1 || die "npm (Node 20+) is required"
  local want have stamp=node_modules/.hearts-lock.sha256
  want="$(printf '%s %s\n' "$(hash_of package-lock.json)" "$(node --version)")"
  have="$(cat "$stamp" 2>/dev/null || true)"
  if [ "$want" = "$have" ] && [ -f node_modules/pyodide/pyodide.mjs ]; then
    log "node_modules up to date (npm ci skipped)"
  else
    log "npm ci"
    # --ignore-scripts: nothing we use needs an install script (esbuild ships its binary as an
    # optional package; the test relay must not try to download native WebRTC binaries)
    npm ci --ignore-scripts --no-audit --no-fund --loglevel=error || die "npm ci failed"
    printf '%s\n' "$want" > "$stamp"
  fi
}

build_dist() {
  log "build dist/"
  "$PYTHON" tools/build.py || die "build failed"
}
