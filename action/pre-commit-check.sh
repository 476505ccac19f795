#!/usr/bin/env bash
# agentflow's pre-commit `agentflow-check` hook (.pre-commit-hooks.yaml): checks the staged files
# that `agentflow check .` would read — any JSON or YAML document (an imported workflow need not
# be named *.agent.*), policy pack or BPMN process — with the agentflow the repository installed.
# pre-commit passes every staged .json, .yaml, .yml and .bpmn file; a file named on agentflow's
# command line is read even when the config's ignores name it, so this passes over, as a walk of
# the repository does, the config, fixtures, dot-folders, node_modules and what the config's
# `ignores` name, and also package.json and lock files, which are never agent documents
# (action/narrow.js decides, as for the Action). A staged file the settings read (a registry
# workflow or tool contract, the config or a file it extends, a pack, a plugin's file) changes
# the verdicts of documents that did not change, so the whole repository is checked then, as the
# Action does (list what is no agentflow document in the config's `ignores`). Exit codes are
# agentflow's; settings that cannot be read are its exit 2.
set -uo pipefail

[ "$#" -eq 0 ] && exit 0
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
agentflow=(npx --no-install agentflow)
settings="$(mktemp)" || exit 2
kinds="$(mktemp)" || exit 2
trap 'rm -f "$settings" "$kinds"' EXIT

# agentflow says why on stderr (a broken config, agentflow not installed).
"${agentflow[@]}" check --print-config . > "$settings" || exit 2
# The installed agentflow, whose matcher (picomatch) reads the ignores as agentflow does.
installed="$(node -p 'require("node:path").dirname(require.resolve("agentflow/package.json"))' 2> /dev/null)"
printf '%s\0' "$@" | node "$here/narrow.js" check "${installed:-$here/..}" "$settings" > "$kinds" || exit 2

files=()
whole=""
while IFS= read -r -d '' kind && IFS= read -r -d '' file; do
  case "$kind" in
    other | ignored) ;;
    take) files+=("$file") ;;
    # A process while a waiver names processes by id: only a run over every process finds the
    # waiver ambiguous when another file defines the same id.
    waived) [ -z "$whole" ] && whole="'$file' is a process and a waiver names processes by id, which a process that did not change may share" ;;
    # Read for every verdict: the documents that resolve a changed contract, or that a changed
    # config or pack judges, are checked again with it.
    *) [ -z "$whole" ] && whole="'$file' is read by the settings (the registry, the config, a pack or a plugin)" ;;
  esac
done < "$kinds"
if [ -n "$whole" ]; then
  echo "agentflow: $whole; checking the whole repository" >&2
  "${agentflow[@]}" check .
  exit $?
fi
[ "${#files[@]}" -eq 0 ] && exit 0
# Not exec: the trap removes the temporary files when this shell exits. The files come after
# `--`: a staged file named `--print-config=x.json` is a file to check, never an option.
"${agentflow[@]}" check -- "${files[@]}"
exit $?
