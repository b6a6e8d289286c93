#!/usr/bin/env tsx
import { clientBaseUrl } from '../lib/context.js';
import { describeError } from '../lib/handle-error.js';
import { buildProgram } from '../program.js';

buildProgram()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    const { message, exitCode } = describeError(error, clientBaseUrl());
    // Commander has already printed usage errors and help.
    if (exitCode !== 0 && !(error as { code?: string }).code?.startsWith('commander.'))
      process.stderr.write(`vsf: ${message}\n`);
    process.exitCode = exitCode;
  });
