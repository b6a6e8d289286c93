import type { Command } from 'commander';
import cliPackage from '../../package.json' with { type: 'json' };
import type { GlobalOptions } from '../lib/context.js';

export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description(
      "Serve the API's operations as MCP tools over stdio for a local AI assistant (the key's scopes pick the tools)",
    )
    .addHelpText(
      'after',
      [
        '',
        'An assistant starts it and talks JSON-RPC over stdin/stdout; notes go to stderr. It uses the key and',
        'base URL vsf is configured with (flags, VSF_API_KEY / VSF_BASE_URL, or the profile), checks the key once',
        "(exits 4 when it is refused) and lists only the tools the key's scopes allow.",
        '',
        'Examples:',
        '  vsf mcp                       # what an assistant runs',
        "  vsf mcp --profile yard        # another profile's key and server",
        '',
        "Claude Desktop's config (claude_desktop_config.json):",
        '  {"mcpServers": {"vsf": {"command": "vsf", "args": ["mcp"],',
        '    "env": {"VSF_API_KEY": "vsf_…", "VSF_BASE_URL": "https://storage.example.com/api/v1"}}}}',
      ].join('\n'),
    )
    .action(async (_options, cmd: Command) => {
      // Loaded only for this command: the MCP SDK is not for the other commands' start-up.
      const { serveMcp } = await import('../lib/mcp-server.js');
      await serveMcp(cmd.optsWithGlobals<GlobalOptions>(), cliPackage.version);
    });
}
