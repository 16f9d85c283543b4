#!/usr/bin/env bash
# End-to-end test of `playchat serve`, the OpenAI-compatible API (issue 23),
# with a client of another ecosystem: the official openai npm package
# (scripts/interop/openai) against playchat serve started on a temporary
# HOME, with the fake model (fakellm) as its openai/ provider and a one-file
# knowledge base. Checks: models list and retrieve (an id with slashes),
# non-streamed and streamed completions with usage, a playchat/ model whose
# context holds the KB document (x_playchat_sources), 401, 404, 413, an
# aborted stream. No window, no Xvfb.
#
# PLAYCHAT_BIN and FAKELLM_BIN choose the binaries; by default both are
# built into the temporary folder (a plain `go build` runs the CLI).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=$(mktemp -d)
export LANG=C.UTF-8 LC_ALL=C.UTF-8
GROUPS_STARTED=()

# spawn OUT CMD…: runs CMD in its own process group, output to OUT; sets SPAWNED.
spawn() {
  local out=$1
  shift
  setsid "$@" >"$out" 2>&1 &
  SPAWNED=$!
  GROUPS_STARTED+=("$SPAWNED")
}

# stop_group PGID: SIGTERM, SIGKILL after 10 s, then waits until no process
# of the group is left. Never fails.
stop_group() {
  local pg=$1 i
  kill -TERM -- "-$pg" 2>/dev/null || true
  for i in $(seq 100); do pgrep -g "$pg" >/dev/null 2>&1 || break; sleep 0.1; done
  if pgrep -g "$pg" >/dev/null 2>&1; then
    kill -KILL -- "-$pg" 2>/dev/null || true
    for i in $(seq 100); do pgrep -g "$pg" >/dev/null 2>&1 || break; sleep 0.1; done
  fi
  wait "$pg" 2>/dev/null || true
  return 0
}

# The cleanup only tidies up; it never decides the verdict.
cleanup() {
  local status=$? pg i
  set +e
  for pg in "${GROUPS_STARTED[@]}"; do stop_group "$pg"; done
  for i in $(seq 20); do rm -rf "$WORK" 2>/dev/null && break; sleep 0.25; done
  exit "$status"
}
trap cleanup EXIT

fail() {
  echo "e2e-api: FAIL: $*" >&2
  [ -f "$WORK/serve.err" ] && tail -30 "$WORK/serve.err" >&2
  exit 1
}

# wait_for WHAT CMD…: runs CMD every 0.1 s for up to 30 s until it succeeds.
wait_for() {
  local what=$1 i
  shift
  for i in $(seq 300); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
  fail "timed out waiting for $what"
}

PLAYCHAT=${PLAYCHAT_BIN:-}
FAKE=${FAKELLM_BIN:-}
if [ -z "$PLAYCHAT" ]; then
  PLAYCHAT=$WORK/playchat
  (cd "$ROOT" && go build -o "$PLAYCHAT" .) || fail "go build playchat"
fi
if [ -z "$FAKE" ]; then
  FAKE=$WORK/fakellm
  (cd "$ROOT" && go build -o "$FAKE" ./backend/llm/llmtest/cmd/fakellm) || fail "go build fakellm"
fi

echo "e2e-api: npm ci (scripts/interop/openai)"
(cd "$ROOT/scripts/interop/openai" && npm ci --no-audit --no-fund --loglevel=error) || fail "npm ci"

spawn "$WORK/fake.out" "$FAKE" -addr 127.0.0.1:0 -models fake-chat
wait_for "fakellm" grep -q '^FAKELLM_URL=' "$WORK/fake.out"
FAKE_URL=$(sed -n 's/^FAKELLM_URL=//p' "$WORK/fake.out")

mkdir -p "$WORK/home" "$WORK/kb/guide"
printf '# カレーの隠し味\n\nカレーの隠し味はチョコレートとコーヒーです。煮込む前に入れます。\n' >"$WORK/kb/guide/curry.md"
TOKEN=e2e-api-token-0123456789abcdef
# A bare environment, as services start programs: HOME alone finds the data dir.
spawn "$WORK/serve.out" env -i PATH="$PATH" HOME="$WORK/home" LANG=C.UTF-8 \
  PLAYCHAT_API_TOKEN="$TOKEN" OPENAI_BASE_URL="$FAKE_URL" DEFAULT_MODEL=openai/fake-chat AUTO_TAGS=false \
  OLLAMA_API_BASE=http://127.0.0.1:9 LM_STUDIO_API_BASE=http://127.0.0.1:9/v1 KNOWLEDGE_BASE_DIR="$WORK/kb" \
  "$PLAYCHAT" serve --port 0
SERVE_PID=$SPAWNED
wait_for "playchat serve" grep -q '^PLAYCHAT_API_URL=' "$WORK/serve.out"
API_URL=$(sed -n 's/^PLAYCHAT_API_URL=//p' "$WORK/serve.out")
echo "e2e-api: playchat serve at $API_URL"

(cd "$ROOT/scripts/interop/openai" &&
  PLAYCHAT_API_URL="$API_URL" PLAYCHAT_API_TOKEN="$TOKEN" \
  PLAYCHAT_KB_DOC=guide/curry.md PLAYCHAT_KB_QUERY="カレーの隠し味は何？" node test.mjs) || fail "the openai npm client's checks"

# A clean stop on SIGTERM.
# (A stopped process is a zombie until waited for: look at its state.)
running() { local st; st=$(ps -o stat= -p "$1" 2>/dev/null) && [ -n "$st" ] && [ "${st#Z}" = "$st" ]; }
kill -TERM -- "-$SERVE_PID"
for i in $(seq 100); do running "$SERVE_PID" || break; sleep 0.1; done
if running "$SERVE_PID"; then fail "playchat serve did not stop on SIGTERM"; fi
rc=0
wait "$SERVE_PID" || rc=$?
[ "$rc" -eq 0 ] || fail "playchat serve exited $rc on SIGTERM"
echo "e2e-api: PASS"
