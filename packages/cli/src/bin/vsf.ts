#!/usr/bin/env tsx
import { setFlagsFromString } from 'node:v8';
import { clientBaseUrl } from '../lib/context.js';
import { describeError } from '../lib/handle-error.js';
import { buildProgram } from '../program.js';

// Node's fetch parses HTTP with llhttp compiled to WebAssembly, and V8's optimizing tier for it holds
// ~29 MB for the process's life: a `vsf sync` with nothing to sync peaked at 86 MB for it. The baseline
// tier parses a CLI's requests as well; it is set before the first request compiles the parser.
setFlagsFromString('--liftoff-only');

buildProgram()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    const { message, exitCode } = describeError(error, clientBaseUrl());
    // Commander has already printed usage errors and help.
    if (exitCode !== 0 && !(error as { code?: string }).code?.startsWith('commander.'))
      process.stderr.write(`vsf: ${message}\n`);
    process.exitCode = exitCode;
  });
