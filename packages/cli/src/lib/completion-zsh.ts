import { type CompletionNode, shellQuote } from './completion-tree.js';

/** `name:description` entries for `_describe`, one array element each (a colon in a name is escaped). */
const described = (entries: { name: string; description: string }[]) =>
  entries.map((e) => shellQuote(`${e.name.replace(/:/g, '\\:')}:${e.description}`)).join(' ');

function caseOf(nodes: CompletionNode[], body: (node: CompletionNode) => string | undefined): string {
  return nodes
    .map((node) => ({ node, text: body(node) }))
    .filter(({ text }) => text)
    .map(({ node, text }) => `    ${shellQuote(node.path)}) ${text} ;;`)
    .join('\n');
}

/**
 * The zsh completion script, with each subcommand's and option's description: the same walk as bash's
 * (to the command the words so far name), answered with `_describe`, files where a command takes them.
 */
export function zshCompletion(nodes: CompletionNode[]): string {
  const subcommands = caseOf(nodes, (n) =>
    n.subcommands.length > 0 ? `reply=(${described(n.subcommands)})` : undefined,
  );
  const options = caseOf(
    nodes,
    (n) =>
      `reply=(${described(n.options.flatMap((o) => o.names.map((name) => ({ name, description: o.description }))))})`,
  );
  const valueOptions = caseOf(nodes, (n) => {
    const names = n.options.filter((o) => o.takesValue).flatMap((o) => o.names);
    return names.length > 0 ? `reply=(${names.map(shellQuote).join(' ')})` : undefined;
  });
  const choices = nodes
    .flatMap((n) => n.options.filter((o) => o.choices))
    .map((o) => `    ${o.names.map(shellQuote).join('|')}) reply=(${(o.choices ?? []).map(shellQuote).join(' ')}) ;;`);
  const argumentChoices = caseOf(nodes, (n) =>
    n.argumentChoices ? `reply=(${n.argumentChoices.map(shellQuote).join(' ')})` : undefined,
  );
  const withArguments = nodes.filter((n) => n.takesArguments).map((n) => shellQuote(n.path));
  return `#compdef vsf
# vsf completion for zsh. Load it with: source <(vsf completion zsh)
# (or save it as _vsf in a directory of your $fpath). Generated from vsf's commands.

_vsf_subcommands() {
  reply=()
  case "$1" in
${subcommands}
  esac
}

_vsf_options() {
  reply=()
  case "$1" in
${options}
  esac
}

_vsf_value_options() {
  reply=()
  case "$1" in
${valueOptions}
  esac
}

_vsf_option_choices() {
  reply=()
  case "$1" in
${[...new Set(choices)].join('\n')}
  esac
}

_vsf_argument_choices() {
  reply=()
  case "$1" in
${argumentChoices}
  esac
}

_vsf() {
  # Not "path": zsh ties it to $PATH.
  local cmdpath=vsf word prev="" i
  local -a reply entries names
  for ((i = 2; i < CURRENT; i++)); do
    word=\${words[i]}
    if [[ $word == -* ]]; then
      _vsf_value_options "$cmdpath"
      if [[ $word != *=* ]] && (( \${reply[(Ie)$word]} )); then
        (( i + 1 == CURRENT )) && prev=$word
        (( i++ ))
      fi
    else
      _vsf_subcommands "$cmdpath"
      names=(\${reply%%:*})
      (( \${names[(Ie)$word]} )) && cmdpath="$cmdpath $word"
    fi
  done
  if [[ -n $prev ]]; then
    if [[ $prev == --profile ]]; then
      compadd -- \${(f)"$(vsf config profiles --names 2>/dev/null)"}
    else
      _vsf_option_choices "$prev"
      (( \${#reply} )) && compadd -a reply || _files
    fi
    return
  fi
  if [[ $PREFIX == -* ]]; then
    _vsf_options "$cmdpath"
    entries=("\${reply[@]}")
    _describe -t options 'option' entries
    return
  fi
  _vsf_subcommands "$cmdpath"
  if (( \${#reply} )); then
    entries=("\${reply[@]}")
    _describe -t commands 'command' entries
    return
  fi
  _vsf_argument_choices "$cmdpath"
  if (( \${#reply} )); then
    compadd -a reply
    return
  fi
  case "$cmdpath" in
    ${withArguments.join('|') || "''"}) _files ;;
  esac
}

if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  _vsf "$@"
else
  compdef _vsf vsf
fi
`;
}
