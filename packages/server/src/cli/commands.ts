import {
  type AdminGrant,
  type AdminKey,
  type AdminKeyCreated,
  type AdminMember,
  type AdminTeam,
  ALL_SCOPES,
  ASSISTANT_SCOPES,
} from '@vsf/contract';
import { Command, Option } from 'commander';
import { loadConfig } from '../config.js';
import { connectDatabase } from '../db/connect-database.js';
import { migrateToLatest } from '../db/migrate.js';
import { wantsDemoTeam } from '../runtime/bootstrap-demo-team.js';
import { startServer } from '../runtime/start-server.js';
import { type AdminTarget, adminList, adminRequest, adminTarget } from './admin-http.js';
import { ENVIRONMENT_HELP } from './environment-help.js';
import { MEMBER_PASSWORD_ENV, memberPassword } from './member-password.js';

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

/** `--scopes`: comma-separated scope names, `all` for every scope of `all`, or `none` (or empty) for no scope. */
export function parseScopes(value: string, all: readonly string[] = ALL_SCOPES): string[] {
  if (value === 'all') return [...all];
  if (value === 'none') return [];
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

const encode = encodeURIComponent;

/** A member named by id, or by email (looked up in the team's list, as emails are lower-cased there). */
async function memberId(target: AdminTarget, teamId: string, reference: string): Promise<string> {
  if (!reference.includes('@')) return reference;
  const email = reference.trim().toLowerCase();
  const members = await adminList<AdminMember>(target, `/teams/${encode(teamId)}/members`);
  const member = members.find((m) => m.email === email);
  if (!member) throw new Error(`No member with email ${email} in team ${teamId}`);
  return member.id;
}

const PASSWORD_SOURCES = `The password is read from stdin with --password-stdin (one line), else from ${MEMBER_PASSWORD_ENV}, else asked on the terminal; never from an argument, which any user of the machine can see in \`ps\`.`;

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
    const scopes = parseScopes(String(o.scopes));
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

  const members = program
    .command('members')
    .description('Manage team members, who sign an AI assistant in to the connector (OAuth), through the admin API');
  withAdmin(
    members
      .command('create <teamId>')
      .description('Add a member who can sign in to the assistant connector')
      .requiredOption('--email <email>', 'the sign-in name; one email signs in to one team')
      .requiredOption(
        '--scopes <scopes>',
        'the scopes the member may grant an assistant: comma-separated, "all" (every scope but webhooks), or "none"',
      )
      .option('--password-stdin', 'read the password from the first line of stdin')
      .addHelpText('after', `\n${PASSWORD_SOURCES}`),
  ).action(async (teamId, o, cmd) => {
    const password = await memberPassword(o);
    const body = { email: o.email, password, scopes: parseScopes(String(o.scopes), ASSISTANT_SCOPES) };
    print(await adminRequest<AdminMember>(target(cmd), 'POST', `/teams/${encode(teamId)}/members`, body));
  });
  withAdmin(members.command('list <teamId>').description("List a team's members (never their passwords)")).action(
    async (teamId, _o, cmd) => {
      print(await adminList<AdminMember>(target(cmd), `/teams/${encode(teamId)}/members`));
    },
  );
  withAdmin(
    members
      .command('update <teamId> <member>')
      .description(
        "Change the scopes a member may grant (their grants narrow at once) or their password (which ends every grant they gave); <member> is the member's id or email",
      )
      .option('--scopes <scopes>', 'new scopes: comma-separated, "all", or "none"')
      .option('--new-password', `set a new password, from ${MEMBER_PASSWORD_ENV} or asked on the terminal`)
      .option('--password-stdin', 'set a new password, read from the first line of stdin')
      .addHelpText('after', `\n${PASSWORD_SOURCES}`),
  ).action(async (teamId, reference, o, cmd) => {
    if (o.scopes === undefined && !o.newPassword && !o.passwordStdin) {
      throw new Error('Nothing to change: pass --scopes, --new-password or --password-stdin');
    }
    const body = {
      ...(o.scopes !== undefined ? { scopes: parseScopes(String(o.scopes), ASSISTANT_SCOPES) } : {}),
      ...(o.newPassword || o.passwordStdin ? { password: await memberPassword(o) } : {}),
    };
    const to = target(cmd);
    const id = await memberId(to, teamId, reference);
    print(await adminRequest<AdminMember>(to, 'PATCH', `/teams/${encode(teamId)}/members/${encode(id)}`, body));
  });
  withAdmin(
    members
      .command('delete <teamId> <member>')
      .description("Remove a member; every grant they gave ends with them. <member> is the member's id or email"),
  ).action(async (teamId, reference, _o, cmd) => {
    const to = target(cmd);
    const id = await memberId(to, teamId, reference);
    print(
      await adminRequest<{ id: string; deleted: true }>(to, 'DELETE', `/teams/${encode(teamId)}/members/${encode(id)}`),
    );
  });

  const grants = program
    .command('grants')
    .description('Manage what members allowed AI assistants (OAuth grants) through the admin API');
  withAdmin(
    grants.command('list <teamId>').description("List a team's assistant grants, newest first, revoked ones included"),
  ).action(async (teamId, _o, cmd) => {
    print(await adminList<AdminGrant>(target(cmd), `/teams/${encode(teamId)}/grants`));
  });
  withAdmin(
    grants
      .command('revoke <teamId> <grantId>')
      .description("Revoke an assistant's grant: its tokens stop working on their next request"),
  ).action(async (teamId, grantId, _o, cmd) => {
    print(
      await adminRequest<AdminGrant>(target(cmd), 'POST', `/teams/${encode(teamId)}/grants/${encode(grantId)}/revoke`),
    );
  });

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
