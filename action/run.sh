#!/usr/bin/env bash
# The work of agentflow's GitHub Action (action.yml) and GitLab CI component
# (templates/agentflow.yml): run `check`, `gate` or `verify` on the files the push, pull request
# or merge request changed (or on INPUT_PATHS), write the findings for the platform (SARIF for
# GitHub code scanning, GitLab's code quality JSON) and the human report, and say where they are.
# It narrows to the changed files only when each is an existing file the command takes itself,
# none is read by the settings (compared by real path too: a contract linked into the registry
# is the registry's) and none is passed over by the config's ignores; any other change (a
# deletion, a rename, the registry, the config, a pack, a plugin, package.json or a lock file, a
# file it cannot classify or compare) runs on the whole repository, and a failing git is exit 2 —
# never "nothing to check" on a change that may change a verdict. Walks pass over its own
# outputs when OUT_DIR lies in the working directory.
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

fail() { # a git (or setup) failure: a usage mistake, never "nothing to check"
  echo "agentflow: $1" >&2
  say "exit-code=2"
  exit 2
}

# The run's own outputs, when they lie in the working directory: walks and globs pass over them,
# so that the second run (the text report) never reads the first one's findings as an input
# (GitLab keeps its artifacts inside the checkout), nor a run the outputs of an earlier one.
own=()
real_cwd="$(pwd -P)"
real_out="$(cd "$out" && pwd -P)" || fail "cannot enter the output folder '$out'"
case "$real_out/" in
  "$real_cwd"/*)
    rel="${real_out#"$real_cwd"}"
    rel="${rel#/}"
    for made in "$findings" "$report"; do
      # A glob pattern: the folder's name is escaped so that it matches itself only.
      pattern="$(printf '%s' "${rel:+$rel/}${made##*/}" | sed 's/[][\\*?{}()!+@|^$]/\\&/g')"
      own+=(--ignore-pattern "$pattern")
    done
    ;;
esac

# The settings that apply (`check --print-config`): the registry folders, the config and what it
# extends, the policy packs, the plugins and the ignores, as JSON.
settings_json() {
  local extra=()
  [ -n "${INPUT_REGISTRY:-}" ] && extra+=(--registry "$INPUT_REGISTRY")
  [ -n "${INPUT_CONFIG:-}" ] && extra+=(--config "$INPUT_CONFIG")
  node "$bin" check --print-config . "${extra[@]}" "${own[@]}" 2> /dev/null
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
    # Removed on every way out, a failed git diff's too.
    trap 'rm -f "$changed" "$changed.err" "$changed.settings" "$changed.kinds"' EXIT
    git -c core.quotePath=false diff --name-only --no-renames -z "$base" HEAD > "$changed" 2> "$changed.err" \
      || fail "git diff $base HEAD failed: $(cat "$changed.err")"
    # Each change is sorted by action/narrow.js, by name and by real path: a file the command
    # takes itself, one the settings read (the registry, the config, a pack, a plugin: a link
    # into the registry counts), one the config's ignores pass over, or anything else.
    while IFS= read -r -d '' file; do
      if [ ! -f "$file" ]; then
        whole="'$file' was deleted or renamed"
        break
      fi
    done < "$changed"
    if [ -z "$whole" ] && [ -s "$changed" ]; then
      if ! settings_json > "$changed.settings"; then
        # Unreadable settings (a broken config): nothing may be narrowed to.
        whole="the settings (--print-config) could not be read"
      elif ! node "$here/action/narrow.js" "$command" "$here" "$changed.settings" \
        < "$changed" > "$changed.kinds" 2> "$changed.err"; then
        whole="the changed files could not be compared with the settings: $(cat "$changed.err")"
      else
        while IFS= read -r -d '' kind && IFS= read -r -d '' file; do
          case "$kind" in
            take) paths+=("$file") ;;
            registry | config | policy | plugin)
              whole="'$file' is read by the settings (the registry, the config, a pack or a plugin)"
              ;;
            ignored) whole="'$file' changed and the config's ignores pass over it" ;;
            waived)
              whole="'$file' is a process and a waiver names processes by id, which a process that did not change may share"
              ;;
            *) whole="'$file' changed and is not a file $command takes (it may be one the settings read)" ;;
          esac
          [ -n "$whole" ] && break
        done < "$changed.kinds"
      fi
    fi
    rm -f "$changed" "$changed.err" "$changed.settings" "$changed.kinds"
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
# The operands (the approval, the files) come after `--`: a changed file named `--print-config=x.bpmn`
# or `-o…` in a pull request is a file to check, never an option that silences the run.
operands=()
if [ "$command" = verify ]; then
  if [ -z "${INPUT_APPROVAL:-}" ]; then
    echo "agentflow: verify needs the approval (input approval)" >&2
    exit 2
  fi
  operands+=("$INPUT_APPROVAL")
  [ -n "${INPUT_TRUSTED_KEYS:-}" ] && args+=(--trusted-keys "$INPUT_TRUSTED_KEYS")
fi
operands+=("${paths[@]}")
[ -n "${INPUT_REGISTRY:-}" ] && args+=(--registry "$INPUT_REGISTRY")
[ -n "${INPUT_CONFIG:-}" ] && args+=(--config "$INPUT_CONFIG")
[ "$command" != verify ] && args+=("${own[@]}")

machine=(-f "$format")
[ "$format" = sarif ] && [ "$command" != verify ] && machine+=(--sarif-category "${INPUT_SARIF_CATEGORY:-agentflow}")
[ "$format" = gitlab ] && [ "$command" = verify ] && machine=(-f json)

node "$bin" "${args[@]}" "${machine[@]}" -o "$findings" -- "${operands[@]}"
code=$?
# The report people read, in the log and kept as an artifact; the decision is the first run's.
node "$bin" "${args[@]}" -f text -o "$report" -- "${operands[@]}" > /dev/null 2>&1
if [ -f "$report" ]; then
  # On GitHub, the runner reads `::command::` and `##[command]` in the log: a name in a process or
  # workflow must not forge an annotation, mask a word or fold the log, so the report is printed
  # with commands stopped (a token nobody can know in advance ends the stop).
  if [ "${GITHUB_ACTIONS:-}" = true ]; then
    token="$(node -p 'require("node:crypto").randomUUID()')"
    echo "::stop-commands::$token"
    cat "$report"
    echo "::$token::"
  else
    cat "$report"
  fi
fi
say "exit-code=$code"
say "findings=$([ -f "$findings" ] && echo "$findings")"
say "report=$([ -f "$report" ] && echo "$report")"
exit "$code"
