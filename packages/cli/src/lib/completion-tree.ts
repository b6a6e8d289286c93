import type { Command, Option } from 'commander';

/** One option as a shell completes it. */
export interface CompletionOption {
  /** `--spot`, and `-q` for options that have a short form. */
  names: string[];
  description: string;
  /** The next word is the option's value (`--spot A-12`), not a command or another option. */
  takesValue: boolean;
  /** The values it accepts, when they are a fixed list. */
  choices?: readonly string[];
  /** The value is a profile name, completed from the config file. */
  profile?: boolean;
}

/** One command as a shell completes it: the words that reach it, its subcommands and options. */
export interface CompletionNode {
  /** `vsf cars list`. */
  path: string;
  description: string;
  subcommands: { name: string; description: string }[];
  options: CompletionOption[];
  /** Its arguments accept values the shell cannot list (files, ids): fall back to file names. */
  takesArguments: boolean;
  /** Fixed values of its first argument (`vsf completion bash|zsh|fish`). */
  argumentChoices?: readonly string[];
}

const HELP: CompletionOption = { names: ['--help', '-h'], description: 'show help', takesValue: false };

function completionOption(option: Option): CompletionOption {
  return {
    names: [option.long, option.short].filter((n): n is string => Boolean(n)),
    description: option.description,
    takesValue: option.required || option.optional,
    ...(option.argChoices ? { choices: option.argChoices } : {}),
    ...(option.long === '--profile' ? { profile: true } : {}),
  };
}

/**
 * Every command of the program, from the root down, as the completion scripts need it. Built from the
 * program itself, so a new command or option completes without anyone touching the scripts. The root's
 * options count on every command, as commander accepts them after a subcommand too.
 */
export function completionTree(program: Command): CompletionNode[] {
  // --version is the program's alone: `vsf cars --version` is not how anyone asks.
  const globals = program.options.filter((o) => o.long !== '--version').map(completionOption);
  const nodes: CompletionNode[] = [];
  const visit = (command: Command, path: string) => {
    const own =
      command === program
        ? program.options.filter((o) => o.long === '--version').map(completionOption)
        : command.options.map(completionOption);
    const [first] = command.registeredArguments;
    nodes.push({
      path,
      description: command.description(),
      subcommands: command.commands.map((c) => ({ name: c.name(), description: c.description() })),
      options: [...own, ...globals, HELP],
      takesArguments: command.registeredArguments.length > 0,
      ...(first?.argChoices ? { argumentChoices: first.argChoices } : {}),
    });
    for (const sub of command.commands) visit(sub, `${path} ${sub.name()}`);
  };
  visit(program, program.name());
  return nodes;
}

/** `'it'\''s'`: a word quoted for sh, bash, zsh and fish alike. */
export const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;
