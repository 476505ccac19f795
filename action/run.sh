#!/usr/bin/env bash
# The work of agentflow's GitHub Action (action.yml) and GitLab CI component
# (templates/agentflow.yml): run `check`, `gate` or `verify` on the files the push, pull request
# or merge request changed (or on INPUT_PATHS), write the findings for the platform (SARIF for
# GitHub code scanning, GitLab's code quality JSON) and the human report, and say where they are.
# Its exit code is agentflow's: 0 clean, 1 findings that block, 2 a usage mistake.
#
# Environment: INPUT_COMMAND (check | gate | verify), INPUT_PATHS (space-separated; default: the
# changed files), INPUT_REGISTRY, INPUT_CONFIG, INPUT_APPROVAL and INPUT_TRUSTED_KEYS (verify),
# INPUT_SARIF_CATEGORY, BASE_SHA (the commit the change is compared with), AGENTFLOW_BIN (the
# CLI; default: this checkout's), AGENTFLOW_FORMAT (sarif | gitlab), OUT_DIR, GITHUB_OUTPUT.
set -uo pipefail

command="${INPUT_COMMAND:-gate}"
case "$command" in
  check | gate | verify) ;;
  *)
    echo "agentflow: unknown command '$command' (expected check, gate or verify)" >&2
    exit 2
    ;;
esac
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${AGENTFLOW_BIN:-$here/bin/agentflow.js}"
format="${AGENTFLOW_FORMAT:-sarif}"
out="${OUT_DIR:-${RUNNER_TEMP:-${TMPDIR:-/tmp}}/agentflow}"
mkdir -p "$out"
findings="$out/agentflow.$([ "$format" = gitlab ] && echo gitlab.json || echo sarif)"
report="$out/agentflow-report.txt"

say() { # name=value for the calling step (GitHub) and a line for the log
  [ -n "${GITHUB_OUTPUT:-}" ] && echo "$1" >> "$GITHUB_OUTPUT"
  return 0
}

# What agentflow reads, by command: processes for gate, every agentflow document for check.
wanted() {
  case "$command:$1" in
    gate:*.bpmn) return 0 ;;
    check:*.bpmn | check:*.agent.json | check:*.agent.yaml | check:*.agent.yml) return 0 ;;
    check:*.tool.json | check:*.tool.yaml | check:*.tool.yml) return 0 ;;
    check:*.policy.yaml | check:*.policy.yml | check:*.policy.json) return 0 ;;
    *) return 1 ;;
  esac
}

paths=()
if [ -n "${INPUT_PATHS:-}" ]; then
  read -r -a paths <<< "$INPUT_PATHS"
elif [ "$command" != verify ]; then
  base="${BASE_SHA:-}"
  if [ -n "$base" ] && [ "$base" != 0000000000000000000000000000000000000000 ] \
    && git cat-file -e "$base^{commit}" 2> /dev/null; then
    list=$(git diff --name-only --diff-filter=ACMR "$base" HEAD)
  else
    # No commit to compare with (a first push, a shallow clone): every tracked file.
    list=$(git ls-files)
  fi
  while IFS= read -r file; do
    [ -n "$file" ] && wanted "$file" && paths+=("$file")
  done <<< "$list"
  if [ "${#paths[@]}" -eq 0 ]; then
    echo "agentflow: no file $command reads was changed; nothing to check"
    say "exit-code=0"
    say "findings="
    say "report="
    exit 0
  fi
fi

args=("$command")
if [ "$command" = verify ]; then
  if [ -z "${INPUT_APPROVAL:-}" ]; then
    echo "agentflow: verify needs the approval (input approval)" >&2
    exit 2
  fi
  args+=("$INPUT_APPROVAL")
  [ -n "${INPUT_TRUSTED_KEYS:-}" ] && args+=(--trusted-keys "$INPUT_TRUSTED_KEYS")
fi
args+=("${paths[@]}")
[ -n "${INPUT_REGISTRY:-}" ] && args+=(--registry "$INPUT_REGISTRY")
[ -n "${INPUT_CONFIG:-}" ] && args+=(--config "$INPUT_CONFIG")

machine=(-f "$format")
[ "$format" = sarif ] && [ "$command" != verify ] && machine+=(--sarif-category "${INPUT_SARIF_CATEGORY:-agentflow}")
[ "$format" = gitlab ] && [ "$command" = verify ] && machine=(-f json)

node "$bin" "${args[@]}" "${machine[@]}" -o "$findings"
code=$?
# The report people read, in the log and kept as an artifact; the decision is the first run's.
node "$bin" "${args[@]}" -f text -o "$report" > /dev/null 2>&1
[ -f "$report" ] && cat "$report"
say "exit-code=$code"
say "findings=$([ -f "$findings" ] && echo "$findings")"
say "report=$([ -f "$report" ] && echo "$report")"
exit "$code"
