import { Argument, type Command } from 'commander';
import { bashCompletion } from '../lib/completion-bash.js';
import { fishCompletion } from '../lib/completion-fish.js';
import { completionTree } from '../lib/completion-tree.js';
import { zshCompletion } from '../lib/completion-zsh.js';

const SCRIPTS = { bash: bashCompletion, zsh: zshCompletion, fish: fishCompletion } as const;

/** Registered last: the scripts are generated from every command registered before it, itself included. */
export function registerCompletionCommand(program: Command): void {
  program
    .command('completion')
    .description('Print a shell completion script (commands, subcommands, options, profile names)')
    .addArgument(new Argument('[shell]', 'the shell to complete in').choices(Object.keys(SCRIPTS)).default('bash'))
    .addHelpText(
      'after',
      '\nExamples:\n  source <(vsf completion bash)        # in ~/.bashrc\n  source <(vsf completion zsh)         # in ~/.zshrc, after compinit\n  vsf completion fish > ~/.config/fish/completions/vsf.fish',
    )
    .action((shell: keyof typeof SCRIPTS) => {
      process.stdout.write(SCRIPTS[shell](completionTree(program)));
    });
}
