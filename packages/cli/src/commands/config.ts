import type { Command } from 'commander';
import { apiRoot, configPath, readConfig, redactKey, writeConfig } from '../lib/config-store.js';
import { type GlobalOptions, resolveCredentials } from '../lib/context.js';
import { CliError, EXIT } from '../lib/exit-codes.js';
import { info, printJson, renderTable } from '../lib/output.js';

export function registerConfigCommands(program: Command): void {
  const config = program.command('config').description(`Named profiles (key and base URL), kept in ${configPath()}`);

  config
    .command('set')
    .description('Save a key and/or base URL into a profile (default: "default")')
    .option('--default', 'make this profile the one used when none is named')
    // What it saves comes from the global --api-key, --base-url and --profile: its help lists them too.
    .configureHelp({ showGlobalOptions: true })
    .addHelpText(
      'after',
      '\nA --base-url without /api/v1 (https://storage.example.com) is completed to the API root.\nVSF_PROFILE names the profile to use when --profile is not given.\n\nExamples:\n  vsf config set --api-key vsf_… \n  vsf config set --profile north --api-key vsf_… --base-url https://storage.example.com/api/v1 --default',
    )
    .action((o: { default?: boolean }, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      if (!g.apiKey && !g.baseUrl) throw new CliError('Nothing to save: pass --api-key and/or --base-url', EXIT.usage);
      const root = g.baseUrl ? apiRoot(g.baseUrl) : undefined;
      if (root?.corrected) info(g, `--base-url ${g.baseUrl} has no /api/v1; saving the API root ${root.url}`);
      const file = readConfig();
      const name = g.profile ?? 'default';
      file.profiles[name] = {
        ...file.profiles[name],
        ...(g.apiKey ? { apiKey: g.apiKey } : {}),
        ...(root ? { baseUrl: root.url } : {}),
      };
      if (o.default || !file.defaultProfile) file.defaultProfile = name;
      writeConfig(file);
      info(g, `Saved profile "${name}" (key ${redactKey(file.profiles[name]?.apiKey)}) to ${configPath()}`);
    });

  config
    .command('profiles')
    .description('List profiles; keys are never shown in full')
    .option('--names', 'only the profile names, one a line (for scripts and shell completion)')
    .addHelpText(
      'after',
      '\nExamples:\n  vsf config profiles\n  vsf config profiles --json\n  vsf config profiles --names',
    )
    .action((o: { names?: boolean }, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      const file = readConfig();
      if (o.names)
        return void process.stdout.write(
          Object.keys(file.profiles)
            .map((n) => `${n}\n`)
            .join(''),
        );
      const rows = Object.entries(file.profiles).map(([name, p]) => ({
        name,
        default: name === file.defaultProfile,
        apiKey: redactKey(p.apiKey),
        baseUrl: p.baseUrl ?? '',
      }));
      if (g.json) return printJson(rows);
      const active = resolveCredentials({ ...(g.profile ? { profile: g.profile } : {}) }).profileName;
      process.stdout.write(
        renderTable(rows, [
          { header: 'PROFILE', value: (r) => `${r.name}${r.name === active ? ' *' : ''}` },
          { header: 'KEY', value: (r) => r.apiKey },
          { header: 'BASE URL', value: (r) => r.baseUrl },
        ]),
      );
    });
}
