import { type CompletionNode, shellQuote } from './completion-tree.js';

/** A `case` over command paths, each answering with a list of words (no bash 4 associative arrays: macOS has 3.2). */
function caseOf(nodes: CompletionNode[], words: (node: CompletionNode) => string[]): string {
  return nodes
    .map((node) => ({ node, list: words(node) }))
    .filter(({ list }) => list.length > 0)
    .map(({ node, list }) => `    ${shellQuote(node.path)}) echo ${shellQuote(list.join(' '))} ;;`)
    .join('\n');
}

/**
 * The bash completion script: `_vsf` walks the words typed so far to the command they name (skipping
 * options and their values), then offers that command's subcommands, or its options after a `-`, or the
 * choices of the option being given a value; anything else falls back to file names (photos).
 */
export function bashCompletion(nodes: CompletionNode[]): string {
  const subcommands = caseOf(nodes, (n) => n.subcommands.map((s) => s.name));
  const options = caseOf(nodes, (n) => n.options.flatMap((o) => o.names));
  const valueOptions = caseOf(nodes, (n) => n.options.filter((o) => o.takesValue).flatMap((o) => o.names));
  const choices = [
    ...new Map(
      nodes.flatMap((n) => n.options.filter((o) => o.choices).flatMap((o) => o.names.map((name) => [name, o.choices]))),
    ),
  ]
    .map(([name, list]) => `    ${shellQuote(name)}) echo ${shellQuote((list ?? []).join(' '))} ;;`)
    .join('\n');
  const argumentChoices = caseOf(nodes, (n) => [...(n.argumentChoices ?? [])]);
  return `# vsf completion for bash. Load it with: source <(vsf completion bash)
# Generated from vsf's commands; regenerate after upgrading vsf.

_vsf_subcommands() {
  case "$1" in
${subcommands}
  esac
}

_vsf_options() {
  case "$1" in
${options}
  esac
}

_vsf_value_options() {
  case "$1" in
${valueOptions}
  esac
}

_vsf_option_choices() {
  case "$1" in
${choices}
  esac
}

_vsf_argument_choices() {
  case "$1" in
${argumentChoices}
  esac
}

_vsf_has() {
  local word
  for word in $2; do [[ "$word" == "$1" ]] && return 0; done
  return 1
}

_vsf() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="" cmdpath=vsf word i
  COMPREPLY=()
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    if [[ "$word" == -* ]]; then
      # --spot A-12: the value is not a command; --spot=A-12 carries its own.
      if [[ "$word" != *=* ]] && _vsf_has "$word" "$(_vsf_value_options "$cmdpath")"; then
        if ((i + 1 == COMP_CWORD)); then prev="$word"; fi
        ((i++))
      fi
    elif _vsf_has "$word" "$(_vsf_subcommands "$cmdpath")"; then
      cmdpath="$cmdpath $word"
    fi
  done
  if [[ -n "$prev" ]]; then
    if [[ "$prev" == --profile ]]; then
      COMPREPLY=($(compgen -W "$(vsf config profiles --names 2>/dev/null)" -- "$cur"))
    else
      COMPREPLY=($(compgen -W "$(_vsf_option_choices "$prev")" -- "$cur"))
    fi
    return 0
  fi
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$(_vsf_options "$cmdpath")" -- "$cur"))
    return 0
  fi
  COMPREPLY=($(compgen -W "$(_vsf_subcommands "$cmdpath") $(_vsf_argument_choices "$cmdpath")" -- "$cur"))
}

complete -o default -F _vsf vsf
`;
}
