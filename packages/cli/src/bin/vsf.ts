#!/usr/bin/env tsx
import { leanStart } from '../lib/lean-start.js';

// Before anything else is evaluated: the CLI's modules are loaded only after V8 is set up for a short run.
leanStart();
const [{ buildProgram }, { describeError, errorDocument }, { clientBaseUrl }, { jsonPrinted, printJson, wantsJson }] =
  await Promise.all([
    import('../program.js'),
    import('../lib/handle-error.js'),
    import('../lib/context.js'),
    import('../lib/output.js'),
  ]);

const program = buildProgram();
program.parseAsync(process.argv).catch((error: unknown) => {
  const { message, exitCode } = describeError(error, clientBaseUrl());
  // Commander has already printed usage errors and help.
  if (exitCode !== 0 && !(error as { code?: string }).code?.startsWith('commander.'))
    process.stderr.write(`vsf: ${message}\n`);
  // `--json` promises one document on stdout, a failure included, unless the command printed its own.
  if (exitCode !== 0 && !jsonPrinted() && wantsJson(process.argv.slice(2), program.opts()))
    printJson(errorDocument(message, exitCode, error));
  process.exitCode = exitCode;
});
