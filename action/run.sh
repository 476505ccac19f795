#!/usr/bin/env bash
# The work of agentflow's GitHub Action (action.yml) and GitLab CI component
# (templates/agentflow.yml): run `check`, `gate` or `verify` on the files the push, pull request
# or merge request changed (or on INPUT_PATHS), write the findings for the platform (SARIF for
# GitHub code scanning, GitLab's code quality JSON) and the human report, and say where they are.
# It narrows to the changed files only when each is an existing file the command takes itself and
# none is read by the settings; any other change (a deletion, a rename, the registry, the config,
# a pack, a plugin, a file it cannot classify) runs on the whole repository, and a failing git
# is exit 2 — never "nothing to check" on a change that may change a verdict.
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

# The inputs each command takes itself: processes for gate; for check every agentflow document,
# which may be any JSON or YAML file (an imported workflow has no `.agent.` in its name).
# Not taken: what a walk of the repository leaves out (dot-folders, node_modules), fixtures and the
# config, which are inputs of other documents rather than documents.
takes() {
  case "/$1" in
    */.* | */node_modules/* | */agentflow.config.json | *.fixtures.json | *.fixtures.y*ml) return 1 ;;
  esac
  case "$command:$1" in
    gate:*.bpmn) return 0 ;;
    check:*.bpmn | check:*.json | check:*.yaml | check:*.yml) return 0 ;;
    *) return 1 ;;
  esac
}

fail() { # a git (or setup) failure: a usage mistake, never "nothing to check"
  echo "agentflow: $1" >&2
  say "exit-code=2"
  exit 2
}

# The files the settings read (registry folders, the config and what it extends, policy packs,
# plugin modules and their folders), NUL-separated: a change to one may change the verdict of
# every process or document, so it is never narrowed to. `--print-config` on `$1` says them.
settings_files() {
  local extra=()
  [ -n "${INPUT_REGISTRY:-}" ] && extra+=(--registry "$INPUT_REGISTRY")
  [ -n "${INPUT_CONFIG:-}" ] && extra+=(--config "$INPUT_CONFIG")
  node "$bin" check --print-config "$1" "${extra[@]}" 2> /dev/null | node -e '
    const { dirname } = require("node:path");
    let text = "";
    process.stdin.on("data", (c) => (text += c)).on("end", () => {
      const c = JSON.parse(text);
      const files = [
        ...(c.registry ?? []),
        ...(c.configChain ?? []).map((f) => f.file),
        ...(c.policies ?? []).map((p) => (typeof p === "string" ? p : p.file)),
        ...(c.plugins ?? []).map((p) => dirname(p.file)),
      ];
      process.stdout.write(files.map((f) => f + "\0").join(""));
    });'
}

# True when `$1` is, or lies under, one of the paths in $settings (each ended by \001).
read_by_settings() {
  local entry
  while IFS= read -r -d $'\001' entry; do
    entry="${entry#./}"
    entry="${entry%/}"
    [ -z "$entry" ] && continue
    [ "$entry" = . ] && return 0
    case "$1" in "$entry" | "$entry"/*) return 0 ;; esac
  done <<< "$settings"
  return 1
}

paths=()
if [ -n "${INPUT_PATHS:-}" ]; then
  read -r -a paths <<< "$INPUT_PATHS"
elif [ "$command" != verify ]; then
  inside=$(git rev-parse --is-inside-work-tree 2>&1) || fail "not in a git repository, so what changed is unknown: $inside (give paths)"
  base="${BASE_SHA:-}"
  whole=""
  if [ -z "$base" ] || [ "$base" = 0000000000000000000000000000000000000000 ]; then
    whole="there is no commit to compare with (a first push)"
  elif ! git cat-file -e "$base^{commit}" 2> /dev/null; then
    # A shallow clone, or a base rewritten by a force push: what changed is unknown.
    whole="the base commit $base is not in this clone (check out with fetch-depth: 0)"
  else
    # Every change, deletions and both sides of a rename too; names as they are (quotePath off),
    # NUL-separated so that no name is mangled or split.
    changed=$(mktemp) || fail "cannot make a temporary file"
    git -c core.quotePath=false diff --name-only --no-renames -z "$base" HEAD > "$changed" 2> "$changed.err" \
      || fail "git diff $base HEAD failed: $(cat "$changed.err")"
    settings=""
    read_settings=""
    while IFS= read -r -d '' file; do
      if [ ! -f "$file" ]; then
        whole="'$file' was deleted or renamed"
      elif ! takes "$file"; then
        whole="'$file' changed and is not a file $command takes (it may be one the settings read)"
      else
        if [ -z "$read_settings" ]; then
          read_settings=yes
          # Unreadable settings (a broken config): nothing may be narrowed to.
          settings=$(settings_files "$file" | tr '\0' '\001') \
            || whole="the settings (--print-config) could not be read"
        fi
        if [ -n "$whole" ]; then
          break
        elif read_by_settings "$file"; then
          whole="'$file' is read by the settings (the registry, the config, a pack or a plugin)"
        else
          paths+=("$file")
        fi
      fi
      [ -n "$whole" ] && break
    done < "$changed"
    rm -f "$changed" "$changed.err"
    if [ -z "$whole" ] && [ "${#paths[@]}" -eq 0 ]; then
      echo "agentflow: the change touched no file; nothing to check"
      say "exit-code=0"
      say "findings="
      say "report="
      exit 0
    fi
  fi
  if [ -n "$whole" ]; then
    echo "agentflow: $whole; checking the whole repository"
    paths=(.)
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
