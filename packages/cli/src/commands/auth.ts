import type { V1AuthKey } from '@vsf/sdk';
import { AuthenticationError } from '@vsf/sdk';
import type { Command } from 'commander';
import { redactKey } from '../lib/config-store.js';
import { createClient, type GlobalOptions } from '../lib/context.js';
import { CliError, EXIT } from '../lib/exit-codes.js';
import { info, printJson } from '../lib/output.js';

const DAY_MS = 24 * 3600_000;
const WARN_DAYS = 14;

export function registerAuthCommands(program: Command): void {
  const auth = program.command('auth').description('Check API keys');

  auth
    .command('status')
    .description("Show who the key belongs to, its scopes and expiry; exits 4 when it doesn't work")
    .addHelpText(
      'after',
      '\nExamples:\n  vsf auth status\n  vsf auth status --json\n  VSF_API_KEY=vsf_… vsf auth status',
    )
    .action(async (_options, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      const client = createClient(globals);
      const key = await client.auth.getKey();
      const warning = expiryWarning(key);
      if (globals.json) return printJson({ valid: true, ...key, warning: warning ?? null });
      process.stdout.write(
        [
          `Key:     ${key.name} (${key.prefix})`,
          `Team:    ${key.teamId}`,
          `Scopes:  ${key.scopes.join(', ') || '(none)'}`,
          `Expires: ${key.expiresAt ?? 'never'}`,
          `Created: ${key.createdAt}`,
          '',
        ].join('\n'),
      );
      if (warning) info(globals, `warning: ${warning}`);
    });

  auth
    .command('rotate-check')
    .description('Check a new key can replace the current one before you switch and revoke the old one')
    .requiredOption('--new-key <key>', 'the key you are about to switch to')
    .addHelpText(
      'after',
      '\nRotation: create a new key, run this, update the integration, then revoke the old key.\n\nExample:\n  vsf auth rotate-check --new-key vsf_…',
    )
    .action(async (options: { newKey: string }, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      const current = await createClient(globals).auth.getKey();
      let next: V1AuthKey;
      try {
        next = await createClient(globals, { apiKey: options.newKey }).auth.getKey();
      } catch (error) {
        if (error instanceof AuthenticationError) {
          throw new CliError(`The new key ${redactKey(options.newKey)} does not work: ${error.message}`, EXIT.auth);
        }
        throw error;
      }
      // The same key twice: "safe, revoke the old one" would tell staff to revoke the key they keep using.
      if (next.id === current.id)
        throw new CliError(
          `--new-key is the key in use (${current.prefix}), not a new one: create a new key, then run vsf auth rotate-check --new-key <new key>`,
          EXIT.usage,
        );
      const problems: string[] = [];
      if (next.teamId !== current.teamId) problems.push(`belongs to team ${next.teamId}, not ${current.teamId}`);
      const missing = current.scopes.filter((s) => !next.scopes.includes(s));
      if (missing.length > 0) problems.push(`lacks scopes the current key has: ${missing.join(', ')}`);
      if (next.expiresAt && (!current.expiresAt || Date.parse(next.expiresAt) < Date.parse(current.expiresAt))) {
        problems.push(`expires sooner (${next.expiresAt}) than the current key (${current.expiresAt ?? 'never'})`);
      }
      const verdict = problems.length === 0 ? 'safe' : 'unsafe';
      if (globals.json)
        printJson({ verdict, problems, current: current.prefix, next: next.prefix, missingScopes: missing });
      else if (problems.length === 0)
        process.stdout.write(
          `OK: ${next.prefix} can replace ${current.prefix}. Switch the integration, then revoke ${current.prefix}.\n`,
        );
      else
        process.stdout.write(`NOT SAFE to rotate to ${next.prefix}:\n${problems.map((p) => `  - ${p}`).join('\n')}\n`);
      if (problems.length > 0) process.exitCode = EXIT.failure;
    });
}

function expiryWarning(key: V1AuthKey): string | undefined {
  if (!key.expiresAt) return undefined;
  const left = Date.parse(key.expiresAt) - Date.now();
  if (left > WARN_DAYS * DAY_MS) return undefined;
  return `this key expires in ${Math.max(0, Math.ceil(left / DAY_MS))} day(s) (${key.expiresAt}); rotate it soon`;
}
