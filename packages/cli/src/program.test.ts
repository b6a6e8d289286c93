import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from './program.js';

function leaves(command: Command): Command[] {
  return command.commands.length === 0 ? [command] : command.commands.flatMap(leaves);
}

const path = (c: Command): string => (c.parent ? `${path(c.parent)} ${c.name()}` : c.name());

describe('vsf --help', () => {
  for (const command of leaves(buildProgram()).filter((c) => !['help', 'completion'].includes(c.name()))) {
    it(`${path(command)} --help shows a description and examples`, () => {
      let text = '';
      command.configureOutput({ writeOut: (s) => (text += s), writeErr: (s) => (text += s) });
      command.outputHelp();
      expect(command.description()).not.toBe('');
      expect(text).toMatch(/Examples?:\n {2}vsf /);
    });
  }
});

describe('every command and option of vsf has a description', () => {
  const all = (command: Command): Command[] => [command, ...command.commands.flatMap(all)];
  const commands = all(buildProgram());
  // --help, completion and the README show these; an empty one leaves people guessing what a flag does.
  it('no command without a description', () => {
    expect(commands.filter((c) => c.description().trim() === '').map(path)).toEqual([]);
  });
  it('no option without a description', () => {
    const bare = commands.flatMap((c) =>
      c.options.filter((o) => o.description.trim() === '').map((o) => `${path(c)} ${o.flags}`),
    );
    expect(bare).toEqual([]);
  });
  it('walks the whole program (the check above saw every command)', () => {
    expect(commands.map(path)).toEqual(expect.arrayContaining(['vsf move', 'vsf locations list', 'vsf cars create']));
  });
});
