import { type AdminKey, type AdminKeyCreated, type AdminTeam, ALL_SCOPES } from '@vsf/contract';
import { Command, Option } from 'commander';
import { loadConfig } from '../config.js';
import { connectDatabase } from '../db/connect-database.js';
import { migrateToLatest } from '../db/migrate.js';
import { wantsDemoTeam } from '../runtime/bootstrap-demo-team.js';
import { startServer } from '../runtime/start-server.js';
import { adminRequest, adminTarget } from './admin-http.js';
import { ENVIRONMENT_HELP } from './environment-help.js';

/** What to do on a database with no team, when no demo team was made: no secret, only the next steps. */
function firstTeamInstructions(adminEnabled: boolean): string[] {
  return [
    'This database has no team yet. Create the first team and API key through the admin API:',
    '',
    ...(adminEnabled
      ? []
      : ['  (first restart the server with VSF_ADMIN_TOKEN set to a random string of 16+ characters)']),
    '  export VSF_ADMIN_TOKEN=<the admin token the server runs with>',
    '  vsf-server teams create "My team"',
    '  vsf-server keys create <teamId> --name first-key --scopes all',
    '',
    'or open /admin in a browser. For a throwaway demo team instead, start with --demo (VSF_DEMO=1).',
  ];
}

const print = (value: unknown) => console.log(JSON.stringify(value, null, 2));

export function buildProgram(): Command {
  const program = new Command('vsf-server')
    .description('Reference server for the Vehicle Storage Facility API')
    .showHelpAfterError();

  program
    .command('start', { isDefault: true })
    .description('Run migrations and serve the API (embedded PGlite unless DATABASE_URL is a postgres:// URL)')
    .option('--demo', 'on a brand-new database, create a demo team and print its all-scope key (default on PGlite)')
    .option('--no-demo', 'never create the demo team (default on PostgreSQL)')
    .addHelpText('after', ENVIRONMENT_HELP)
    .action(async (options: { demo?: boolean }) => {
      const config = loadConfig();
      const demo = wantsDemoTeam(options.demo ?? config.demo, config.databaseUrl !== undefined);
      const running = await startServer(config, { bootstrapDemo: demo });
      // Before the banner: a supervisor that reads it may stop the server at once, and until a listener
      // exists a SIGTERM still kills the process the default way, with no graceful close and no exit code 0.
      const shutdown = (signal: string) => {
        console.error(`${signal}: finishing in-flight requests, then stopping`);
        running.close().then(
          () => process.exit(0),
          (error) => {
            console.error(error);
            process.exit(1);
          },
        );
      };
      process.once('SIGTERM', () => shutdown('SIGTERM'));
      process.once('SIGINT', () => shutdown('SIGINT'));
      const engine = config.databaseUrl ? 'PostgreSQL' : `embedded PGlite (${config.dataDir})`;
      const admin = config.adminToken ? `${running.url}/admin/v1` : 'disabled (set VSF_ADMIN_TOKEN to enable)';
      const lines = [
        `vsf-server listening on ${running.url} using ${engine}`,
        `  API:     ${running.url}/api/v1   (OpenAPI: ${running.url}/api/v1/openapi.json)`,
        `  Docs:    ${running.url}/docs${running.demo ? '   (the demo key is filled in for a browser on this machine)' : ''}`,
        `  Admin:   ${admin}`,
      ];
      if (running.demo) {
        lines.push(
          '',
          'A new database: created a demo team and an API key with every scope. It is shown only now:',
          '',
          `  VSF_API_KEY=${running.demo.key}`,
          '',
          `  curl -H "Authorization: Bearer ${running.demo.key}" ${running.url}/api/v1/cars`,
          '',
        );
      }
      if (running.noTeams) lines.push('', ...firstTeamInstructions(config.adminToken !== undefined), '');
      // One write, so whoever reads the banner never sees half of it.
      process.stderr.write(`${lines.join('\n')}\n`);
    });

  program
    .command('migrate')
    .description('Bring the database schema up to date and exit (the server also does this at start)')
    .action(async () => {
      const config = loadConfig();
      const db = connectDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
      try {
        const applied = await migrateToLatest(db.knex);
        console.error(applied.length ? `applied: ${applied.join(', ')}` : 'already up to date');
      } finally {
        await db.close();
      }
    });

  const withAdmin = (cmd: Command) =>
    cmd
      .addOption(new Option('--admin-url <url>', 'admin API base URL').env('VSF_ADMIN_URL'))
      .addOption(new Option('--admin-token <token>', 'admin token').env('VSF_ADMIN_TOKEN'));
  const target = (cmd: Command) => {
    const o = cmd.optsWithGlobals() as { adminUrl?: string; adminToken?: string };
    return adminTarget({
      ...(o.adminUrl ? { url: o.adminUrl } : {}),
      ...(o.adminToken ? { token: o.adminToken } : {}),
    });
  };

  const teams = program.command('teams').description('Manage teams through the admin API of a running server');
  withAdmin(teams.command('create <name>').description('Create a team (API on)')).action(async (name, _o, cmd) => {
    print(await adminRequest<AdminTeam>(target(cmd), 'POST', '/teams', { name }));
  });
  withAdmin(teams.command('list').description('List teams')).action(async (_o, cmd) => {
    print(await adminRequest<AdminTeam[]>(target(cmd), 'GET', '/teams'));
  });

  const keys = program.command('keys').description('Manage API keys through the admin API of a running server');
  withAdmin(
    keys
      .command('create <teamId>')
      .description('Create a key; the full key is printed once')
      .requiredOption('--name <name>', 'a name that says where the key is used')
      .option('--scopes <scopes>', `comma-separated scopes, or "all" (${ALL_SCOPES.slice(0, 2).join(', ')}, …)`, 'all')
      .option('--expires-at <timestamp>', 'ISO 8601 expiry with offset'),
  ).action(async (teamId, o, cmd) => {
    const scopes =
      o.scopes === 'all'
        ? [...ALL_SCOPES]
        : String(o.scopes)
            .split(',')
            .map((s: string) => s.trim());
    const body = { name: o.name, scopes, ...(o.expiresAt ? { expiresAt: o.expiresAt } : {}) };
    print(await adminRequest<AdminKeyCreated>(target(cmd), 'POST', `/teams/${teamId}/keys`, body));
  });
  withAdmin(keys.command('list <teamId>').description("List a team's keys (no secrets)")).action(
    async (teamId, _o, cmd) => {
      print(await adminRequest<AdminKey[]>(target(cmd), 'GET', `/teams/${teamId}/keys`));
    },
  );
  withAdmin(keys.command('revoke <keyId>').description('Revoke a key, effective on its next request')).action(
    async (keyId, _o, cmd) => {
      print(await adminRequest<AdminKey>(target(cmd), 'POST', `/keys/${keyId}/revoke`));
    },
  );

  const api = program.command('api').description("Turn a team's API on or off");
  for (const [name, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    withAdmin(
      api.command(`${name} <teamId>`).description(`${name === 'enable' ? 'Turn on' : 'Turn off'} the API for a team`),
    ).action(async (teamId, _o, cmd) => {
      print(await adminRequest<AdminTeam>(target(cmd), 'PATCH', `/teams/${teamId}`, { apiEnabled: enabled }));
    });
  }
  return program;
}
