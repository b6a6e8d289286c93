import { Command, Option } from 'commander';
import cliPackage from '../package.json' with { type: 'json' };
import { registerAuthCommands } from './commands/auth.js';
import { registerCompletionCommand } from './commands/completion.js';
import { registerConfigCommands } from './commands/config.js';
import { registerFacilityCommands } from './commands/facility.js';
import { registerLocationCommands } from './commands/locations.js';
import { registerMcpCommand } from './commands/mcp.js';
import { registerMoveCommand } from './commands/move.js';
import { registerParkingCommands } from './commands/parking.js';
import { registerQueueCommands } from './commands/queue.js';
import { registerRecordCommands } from './commands/records.js';
import { registerResourceCommands } from './commands/resources.js';
import { registerSyncCommand } from './commands/sync.js';
import { autoFlush, autoFlushes } from './lib/offline-queue/auto-flush.js';

export function buildProgram(): Command {
  const program = new Command('vsf')
    .description('Vehicle Storage Facility: cars, customers, key checks and sync from the command line')
    .version(cliPackage.version, '-V, --version', 'print the vsf version')
    .addOption(new Option('--api-key <key>', 'API key (default: VSF_API_KEY, then the profile)'))
    .addOption(
      new Option(
        '--base-url <url>',
        'API root, e.g. https://storage.example.com/api/v1 (default: VSF_BASE_URL, then the profile)',
      ),
    )
    .option('--profile <name>', 'named profile from the config file (default: VSF_PROFILE, then the default profile)')
    .option('--json', 'machine-readable output on stdout')
    .option('-q, --quiet', 'no progress or notes on stderr')
    .option('--no-color', 'no colours (also NO_COLOR)')
    .option('--no-flush', 'do not deliver the offline queue before this command (see vsf queue)')
    .showHelpAfterError()
    .exitOverride()
    .hook('preAction', async (_program, action) => {
      let top = action;
      while (top.parent && top.parent !== program) top = top.parent;
      if (autoFlushes(top.name())) await autoFlush(action.optsWithGlobals());
    });
  registerConfigCommands(program);
  registerAuthCommands(program);
  registerRecordCommands(program);
  registerFacilityCommands(program);
  registerMoveCommand(program);
  registerParkingCommands(program);
  registerLocationCommands(program);
  // After the hand-written ones: every operation they do not offer, for every resource.
  registerResourceCommands(program);
  registerSyncCommand(program);
  registerQueueCommands(program);
  registerMcpCommand(program);
  registerCompletionCommand(program);
  return program;
}
