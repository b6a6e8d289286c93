#!/usr/bin/env tsx
import { buildProgram } from '../cli/commands.js';

buildProgram()
  .parseAsync(process.argv)
  .catch((error: Error) => {
    console.error(`vsf-server: ${error.message}`);
    process.exit(1);
  });
