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
