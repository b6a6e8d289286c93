import type { VsfClient } from '@vsf/sdk';
import type { Command } from 'commander';
import { createClient, type GlobalOptions } from './context.js';
import { type Column, printRecord } from './output.js';

/** The action of a `get <ref>` command: the record `find` gets for the argument, as a one-row table or JSON. */
export function showRecord<T>(columns: Column<T>[], find: (client: VsfClient, ref: string) => Promise<T>) {
  return async (ref: string, _options: unknown, command: Command): Promise<void> => {
    const g = command.optsWithGlobals<GlobalOptions>();
    printRecord(await find(createClient(g), ref), columns, g);
  };
}
