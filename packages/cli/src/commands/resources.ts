import { apiEndpoints, type PagePromise, type RouteLike } from '@vsf/sdk';
import type { Command } from 'commander';
import { RESOURCE_COMMANDS } from '../generated/resource-commands.js';
import { createClient, type GlobalOptions } from '../lib/context.js';
import { CliError, EXIT } from '../lib/exit-codes.js';
import { fetchListed, type ListOptions, pageFlags } from '../lib/list-pages.js';
import { collectPairs, parseTimestamp } from '../lib/option-parsers.js';
import { type Column, printRecord, printRecords } from '../lib/output.js';
import { parseAssignments, requestFields } from '../lib/request-fields.js';
import type { ResourceCommand } from '../lib/resource-command.js';

type Row = Record<string, unknown>;
type Operation = keyof ResourceCommand['operations'];

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const lower = (label: string) => (/^[A-Z][a-z]/.test(label) ? label.charAt(0).toLowerCase() + label.slice(1) : label);

/** `Examples:` for an operation's help, with its real command path and (for writes) its first body fields. */
function examples(resource: ResourceCommand, operation: Operation, operationId: string): string {
  const base = `vsf ${resource.command.join(' ')} ${operation}`;
  const ids = idArguments(resource, operation !== 'list' && operation !== 'create');
  const at = `${base}${ids ? ` ${ids}` : ''}`;
  const writes = operation === 'create' || operation === 'update';
  const sets = Object.keys(writes ? requestFields(operationId) : {})
    .slice(0, operation === 'create' ? 2 : 1)
    .map((field) => `--set ${field}=<${field}>`)
    .join(' ');
  const lines = {
    list: [at, `${at} --all --json`],
    get: [at, `${at} --json`],
    create: [`${at} ${sets}`.trimEnd()],
    update: [`${at} ${sets}`.trimEnd()],
    delete: [at],
  }[operation];
  return `\nExamples:\n${lines.map((line) => `  ${line}`).join('\n')}`;
}

function columnsOf(resource: ResourceCommand): Column<Row>[] {
  return [
    { header: 'ID', value: (r) => r.id },
    ...resource.columns.map((field) => ({ header: kebab(field).toUpperCase(), value: (r: Row) => r[field] })),
    { header: 'UPDATED', value: (r) => r.updatedAt },
  ];
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const VERBS: Record<Operation, string> = {
  list: 'list',
  get: 'show',
  create: 'create',
  update: 'change',
  delete: 'delete',
};

/** The command at `resource.command`, found among those already registered or added (with its parents). */
function groupAt(program: Command, resource: ResourceCommand): Command {
  let group = program;
  resource.command.forEach((name, i) => {
    const last = i === resource.command.length - 1;
    const verbs = Object.keys(resource.operations).map((o) => VERBS[o as Operation]);
    const description = last
      ? `${capital(resource.plural)}: ${verbs.join(', ')}`
      : `${capital(name.replace(/-/g, ' '))} records`;
    group = group.commands.find((c) => c.name() === name) ?? group.command(name).description(description);
  });
  return group;
}

/** `<carId> <eventId>`: the parents' ids, then the record's own where the operation names one record. */
const idArguments = (resource: ResourceCommand, item: boolean) =>
  [...resource.parents, ...(item ? [resource.item] : [])].map((p) => `<${p}>`).join(' ');

function paramsOf(resource: ResourceCommand, ids: string[], item: boolean): Record<string, string> {
  const names = [...resource.parents, ...(item ? [resource.item] : [])];
  return Object.fromEntries(names.map((name, i) => [name, ids[i] as string]));
}

/** `--filter field=value` pairs as a list's query; the server checks the names and the values. */
function filtersOf(pairs: string[]): Record<string, string> {
  return Object.fromEntries(
    pairs.map((pair) => {
      const eq = pair.indexOf('=');
      if (eq <= 0) throw new CliError(`Expected --filter field=value, got "${pair}"`, EXIT.usage);
      return [pair.slice(0, eq), pair.slice(eq + 1)];
    }),
  );
}

/** The call of one operation, through the SDK's generic `request` (retries, errors and paging as every method). */
function call(g: GlobalOptions, operationId: string, args: object) {
  const endpoint = (apiEndpoints as unknown as Record<string, RouteLike>)[operationId] as RouteLike;
  return createClient(g).request<Row>(endpoint, args);
}

function addList(group: Command, resource: ResourceCommand, operationId: string): void {
  pageFlags(group.command(`list ${idArguments(resource, false)}`.trim()).description(`List ${resource.plural}`))
    .option('--filter <field=value>', 'only records whose field equals the value, repeatable', collectPairs)
    .option('--updated-after <timestamp>', 'only records updated at or after this ISO 8601 time', parseTimestamp)
    .addHelpText('after', examples(resource, 'list', operationId))
    .action(async (...args: unknown[]) => {
      const cmd = args.at(-1) as Command;
      const o = args.at(-2) as ListOptions & { filter?: string[]; updatedAfter?: string };
      const g = cmd.optsWithGlobals<GlobalOptions>();
      const params = paramsOf(resource, args.slice(0, resource.parents.length) as string[], false);
      const query = { ...filtersOf(o.filter ?? []), ...(o.updatedAfter ? { updatedAfter: o.updatedAfter } : {}) };
      // A list's call resolves to a page and iterates every record after it, as the generated `list` does.
      const pages = (page: object) =>
        call(g, operationId, { params, query: { ...query, ...page } }) as unknown as PagePromise<Row>;
      const rows = await fetchListed<Row>(o, g, pages, pages);
      printRecords(rows, columnsOf(resource), g);
    });
}

function addItemCommand(group: Command, resource: ResourceCommand, operation: Operation, operationId: string): void {
  const item = operation !== 'create';
  const writes = operation === 'create' || operation === 'update';
  const verb = capital(VERBS[operation]);
  const command = group
    .command(`${operation} ${idArguments(resource, item)}`.trim())
    .description(`${verb} ${/^[aeiou]/i.test(resource.label) ? 'an' : 'a'} ${lower(resource.label)}`);
  if (writes) command.option('--set <field=value>', 'a field of the record, repeatable', collectPairs);
  command.addHelpText('after', examples(resource, operation, operationId));
  command.action(async (...args: unknown[]) => {
    const cmd = args.at(-1) as Command;
    const o = args.at(-2) as { set?: string[] };
    const g = cmd.optsWithGlobals<GlobalOptions>();
    const ids = args.slice(0, resource.parents.length + (item ? 1 : 0)) as string[];
    const name = `${resource.command.join(' ')} ${operation}`;
    const body = writes ? parseAssignments(o.set ?? [], operationId, name) : undefined;
    const result = await call(g, operationId, { params: paramsOf(resource, ids, item), ...(body ? { body } : {}) });
    if (operation === 'delete' && !g.json) process.stdout.write(`deleted ${ids.at(-1)}\n`);
    else printRecord(result, columnsOf(resource), g);
  });
}

/**
 * `vsf <resource> list|get|create|update|delete` for every standard resource of the contract, beside the
 * hand-written commands: an operation a hand-written command already offers (`cars list`) keeps it, every
 * other one is made here, so a new resource has its commands with no line written for the CLI.
 */
export function registerResourceCommands(program: Command, resources = RESOURCE_COMMANDS): void {
  for (const resource of resources) {
    const group = groupAt(program, resource);
    for (const [operation, operationId] of Object.entries(resource.operations) as [Operation, string][]) {
      if (group.commands.some((c) => c.name() === operation)) continue;
      if (operation === 'list') addList(group, resource, operationId);
      else addItemCommand(group, resource, operation, operationId);
    }
  }
}
