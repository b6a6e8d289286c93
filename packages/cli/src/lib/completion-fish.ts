import { type CompletionNode, shellQuote } from './completion-tree.js';

function switchOf(nodes: CompletionNode[], words: (node: CompletionNode) => string[]): string {
  return nodes
    .map((node) => ({ node, list: words(node) }))
    .filter(({ list }) => list.length > 0)
    .map(
      ({ node, list }) =>
        `        case ${shellQuote(node.path)}\n            printf '%s\\n' ${list.map(shellQuote).join(' ')}`,
    )
    .join('\n');
}

/** One `complete` line per option of a command, shown while the words typed so far name that command. */
function optionLines(node: CompletionNode): string[] {
  const when = `-n ${shellQuote(`test (__vsf_path) = ${shellQuote(node.path)}`)}`;
  return node.options.map((o) => {
    const flags = o.names.map((n) => (n.startsWith('--') ? `-l ${n.slice(2)}` : `-s ${n.slice(1)}`)).join(' ');
    const values = o.profile
      ? ` -f -a ${shellQuote('(vsf config profiles --names 2>/dev/null)')}`
      : o.choices
        ? ` -f -a ${shellQuote(o.choices.join(' '))}`
        : '';
    return `complete -c vsf ${when} ${flags}${o.takesValue ? ' -r' : ''}${values} -d ${shellQuote(o.description)}`;
  });
}

/**
 * The fish completion script: `__vsf_path` walks the words typed so far to the command they name, and each
 * subcommand and option is offered, with its description, while that command is the one named.
 */
export function fishCompletion(nodes: CompletionNode[]): string {
  const lines = nodes.flatMap((node) => {
    const when = `-n ${shellQuote(`test (__vsf_path) = ${shellQuote(node.path)}`)}`;
    return [
      ...node.subcommands.map(
        (s) => `complete -c vsf ${when} -f -a ${shellQuote(s.name)} -d ${shellQuote(s.description)}`,
      ),
      ...(node.argumentChoices ? [`complete -c vsf ${when} -f -a ${shellQuote(node.argumentChoices.join(' '))}`] : []),
      ...optionLines(node),
    ];
  });
  return `# vsf completion for fish. Load it with: vsf completion fish | source
# (or save it as ~/.config/fish/completions/vsf.fish). Generated from vsf's commands.

function __vsf_subcommands
    switch $argv[1]
${switchOf(nodes, (n) => n.subcommands.map((s) => s.name))}
    end
end

function __vsf_value_options
    switch $argv[1]
${switchOf(nodes, (n) => n.options.filter((o) => o.takesValue).flatMap((o) => o.names))}
    end
end

# The command the words typed so far name, e.g. "vsf cars list"; an option's value is not a command.
function __vsf_path
    set -l cmdpath vsf
    set -l skip 0
    for word in (commandline -opc)[2..-1]
        if test $skip = 1
            set skip 0
            continue
        end
        switch $word
            case '-*=*'
            case '-*'
                contains -- $word (__vsf_value_options $cmdpath); and set skip 1
            case '*'
                contains -- $word (__vsf_subcommands $cmdpath); and set cmdpath "$cmdpath $word"
        end
    end
    echo $cmdpath
end

complete -c vsf -e
${lines.join('\n')}
`;
}
