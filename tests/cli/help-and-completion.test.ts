// Issue 32 item 6 through the built `vsf`: the completion scripts for bash, zsh and fish come from the
// program's commands (bash is run for real, with the words a user typed), and `config set --help` shows
// the options it saves.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtVsf, runVsf } from './support/run-vsf.js';

const execFileAsync = promisify(execFile);
const home = mkdtempSync(join(tmpdir(), 'vsf-completion-'));
const bin = join(home, 'bin');
const env = { ...process.env, XDG_CONFIG_HOME: home, NO_COLOR: '1', PATH: `${bin}:${process.env.PATH}` };
const vsf = (args: string[]) => runVsf(args, { env, cwd: home });

/** Every command of `vsf`, as `vsf --help` and its subcommands' help list them. */
const TOP_LEVEL = ['config', 'auth', 'cars', 'customers', 'event-types', 'dropoff', 'pickup', 'photos', 'move'];
const MORE = ['parking', 'locations', 'sync', 'queue', 'mcp', 'completion'];

let bashScript: string;

const onPath = (command: string): boolean =>
  (process.env.PATH ?? '').split(':').some((dir) => dir !== '' && existsSync(join(dir, command)));

/** What bash offers for the words typed so far (the last one is the word being completed). */
async function complete(...words: string[]): Promise<string[]> {
  const script = `source ${join(home, 'vsf.bash')}
COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')})
COMP_CWORD=${words.length - 1}
_vsf
printf '%s\\n' "\${COMPREPLY[@]}"`;
  const { stdout } = await execFileAsync('bash', ['--norc', '-c', script], { env });
  return stdout.split('\n').filter(Boolean);
}

beforeAll(async () => {
  // `vsf` on the PATH, as the scripts call it for profile names.
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'vsf'), `#!/bin/sh\nexec "${process.execPath}" "${builtVsf()}" "$@"\n`);
  chmodSync(join(bin, 'vsf'), 0o755);
  const generated = await vsf(['completion', 'bash']);
  expect(generated.code, generated.stderr).toBe(0);
  bashScript = generated.stdout;
  writeFileSync(join(home, 'vsf.bash'), bashScript);
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('vsf completion bash', () => {
  it('is valid bash', async () => {
    await expect(execFileAsync('bash', ['-n', join(home, 'vsf.bash')])).resolves.toBeDefined();
  });

  it('completes commands, subcommands down the tree, and options of the command typed', async () => {
    expect(await complete('vsf', 'mo')).toEqual(['move']);
    expect(await complete('vsf', 'cars', 'up')).toEqual(['update']);
    expect(await complete('vsf', 'parking', 'zones', '')).toEqual(['list', 'create', 'get', 'update', 'delete']);
    expect(await complete('vsf', 'move', 'STK-1', '--s')).toEqual(['--spot']);
    // A global option before the command, and its value, do not hide the command.
    expect(await complete('vsf', '--base-url', 'http://x/api/v1', 'locations', 'cr')).toEqual(['create']);
    expect(await complete('vsf', 'dropoff', 'STK-1', '--zone', 'Hall', '--no')).toEqual(
      expect.arrayContaining(['--notes', '--no-color', '--no-flush']),
    );
  });

  it('completes fixed values: the shell, an option’s choices, and profile names from the config file', async () => {
    expect(await complete('vsf', 'completion', '')).toEqual(['bash', 'zsh', 'fish']);
    expect(await complete('vsf', 'event-types', 'list', '--scope', 'v')).toEqual(['vehicle']);
    const saved = await vsf(['config', 'set', '--profile', 'north', '--api-key', 'vsf_abc.def']);
    expect(saved.code, saved.stderr).toBe(0);
    expect(await complete('vsf', '--profile', 'no')).toEqual(['north']);
  });
});

describe('vsf completion zsh and fish', () => {
  it.each(['zsh', 'fish'])('%s: a script naming every command, subcommand and option', async (shell) => {
    const generated = await vsf(['completion', shell]);
    expect(generated.code, generated.stderr).toBe(0);
    const script = generated.stdout;
    for (const command of [...TOP_LEVEL, ...MORE]) expect(script).toContain(`'${command}`);
    for (const path of ['vsf cars update', 'vsf parking spots create', 'vsf queue retry', 'vsf locations get'])
      expect(script).toContain(path);
    for (const option of ['spot', 'zone', 'updated-after', 'names', 'new-key']) expect(script).toMatch(option);
    expect(script).toContain('vsf config profiles --names');
  });

  it('zsh: describes each subcommand', async () => {
    expect((await vsf(['completion', 'zsh'])).stdout).toContain("'move:Move a parked car to another spot or zone");
  });

  it('fish: one complete line per option, shown under its command', async () => {
    expect((await vsf(['completion', 'fish'])).stdout).toMatch(
      /complete -c vsf -n 'test \(__vsf_path\) = '\\''vsf move'\\''' -l spot -r -d 'the spot it goes to/,
    );
  });

  // Where the shells are installed (CI images may not have them), the scripts must parse, and fish answers
  // what it would complete for a command line (`complete -C`) without a terminal.
  it.runIf(onPath('zsh'))('zsh: the script parses', async () => {
    writeFileSync(join(home, 'vsf.zsh'), (await vsf(['completion', 'zsh'])).stdout);
    await expect(execFileAsync('zsh', ['-n', join(home, 'vsf.zsh')])).resolves.toBeDefined();
  });

  it.runIf(onPath('fish'))('fish: the script completes subcommands and options', async () => {
    writeFileSync(join(home, 'vsf.fish'), (await vsf(['completion', 'fish'])).stdout);
    const fish = async (line: string) =>
      (
        await execFileAsync('fish', ['--no-config', '-c', `source ${join(home, 'vsf.fish')}; complete -C '${line}'`], {
          env,
        })
      ).stdout;
    expect(await fish('vsf cars up')).toMatch(/^update\tChange fields of a car/);
    expect(await fish('vsf move X --s')).toMatch(/^--spot\t/);
    expect(await fish('vsf event-types list --scope v')).toMatch(/^vehicle/);
  });

  it('refuses a shell it does not know, naming the ones it does', async () => {
    const bad = await vsf(['completion', 'powershell']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Allowed choices are bash, zsh, fish');
  });
});

describe('help', () => {
  it('config set --help lists the options it saves, and VSF_PROFILE', async () => {
    const help = await vsf(['config', 'set', '--help']);
    expect(help.code).toBe(0);
    for (const option of ['--api-key <key>', '--base-url <url>', '--profile <name>', '--default'])
      expect(help.stdout).toContain(option);
    expect(help.stdout).toContain('VSF_PROFILE');
  });

  it('vsf --help documents VSF_PROFILE with --profile', async () => {
    const help = (await vsf(['--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('--profile <name> named profile from the config file (default: VSF_PROFILE');
  });
});
