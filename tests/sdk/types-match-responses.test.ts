import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ALL_SCOPES, type EndpointDefinition } from '@vsf/contract';
import { apiEndpoints, type RouteLike, VsfClient } from '@vsf/sdk';
import { startTestServer, type TestServer } from '@vsf/server/testing';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractResources } from '../conformance/sample-bodies.js';
import { createSample } from '../conformance/suite.js';

// The SDK's types are generated, not inferred from what the server does: this holds them to real answers. Every
// record the reference server sends (created, read, listed) and every event of its feed is written into a
// TypeScript program as a literal assigned to the type the SDK's method declares for it; the compiler must
// accept each one (no missing field, no field of another type, no field the type does not name). The
// contract's own types failed this (`V1Car.teamId` was `never`).

const testsDir = new URL('..', import.meta.url).pathname;
let server: TestServer;
let api: VsfClient;

beforeAll(async () => {
  server = await startTestServer();
  const { key } = await server.createTeamWithKey(ALL_SCOPES);
  api = new VsfClient({ apiKey: key, baseUrl: server.baseUrl, logLevel: 'off', maxRetries: 0 });
});
afterAll(() => server?.close());

const routeOf = (endpoint: EndpointDefinition) => apiEndpoints[endpoint.operationId as keyof typeof apiEndpoints];

/** The compiler's complaints about `source`, compiled as the tests package compiles (strict, exact optionals). */
function typeErrors(source: string): string[] {
  const file = join(testsDir, `.types-match-responses-${process.pid}.ts`);
  writeFileSync(file, source);
  try {
    const config = ts.getParsedCommandLineOfConfigFile(
      join(testsDir, 'tsconfig.json'),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => {
          throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
        },
      },
    );
    const program = ts.createProgram([file], { ...config?.options, noEmit: true });
    return ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => {
      const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
      const text = source.split('\n')[line - 1] ?? '';
      return `${ts.flattenDiagnosticMessageText(d.messageText, '\n')}\n  at: ${text.slice(0, 160)}`;
    });
  } finally {
    rmSync(file, { force: true });
  }
}

describe('the SDK types against the reference server', () => {
  it('accepts every record and event the server sends, as the method that returned it declares', async () => {
    const lines = ["import type { V1Event, VsfClient } from '@vsf/sdk';", ''];
    let n = 0;
    const check = (type: string, value: unknown) =>
      lines.push(`export const v${n++}: ${type} = ${JSON.stringify(value)};`);
    const checked = new Set<string>();
    const skipped: string[] = [];

    check("Awaited<ReturnType<VsfClient['auth']['getKey']>>", await api.auth.getKey());
    for (const resource of contractResources()) {
      // A sample body from the schema alone does not satisfy every resource's rules (a form's fields, a photo's
      // session): those are listed, not failed, and the assertion below names the ones that must be covered.
      const created = resource.operations.create
        ? await createSample(api, resource).catch((error: Error) => {
            skipped.push(`${resource.namespace} (${error.message})`);
            return undefined;
          })
        : undefined;
      if (!created) {
        if (!resource.operations.create) skipped.push(`${resource.namespace} (no create)`);
        continue;
      }
      const methods = `VsfClient${resource.namespace
        .split('.')
        .map((part) => `['${part}']`)
        .join('')}`;
      check(`Awaited<ReturnType<${methods}['create']>>`, created.record);
      const { get, list } = resource.operations;
      if (get) {
        const params = { ...created.params, [resource.itemParam]: created.record.id };
        check(
          `Awaited<ReturnType<${methods}['get']>>`,
          await api.request<unknown>(routeOf(get) as RouteLike, { params }),
        );
      }
      if (list) {
        const page = await api.request<{ data: unknown[] }>(routeOf(list) as RouteLike, { params: created.params });
        for (const record of page.data) check(`Awaited<ReturnType<${methods}['list']>>['data'][number]`, record);
      }
      checked.add(resource.namespace);
    }
    const events = await api.events.list({ limit: 500 });
    for (const event of events.data) check('V1Event', event);

    // The run covered what it claims: the records the issue found wrong, and events of several kinds.
    expect([...checked]).toEqual(expect.arrayContaining(['cars', 'customers', 'locations', 'parking.spots']));
    expect(new Set(events.data.map((e) => e.resource)).size).toBeGreaterThan(5);
    if (skipped.length) console.log(`not created from the contract alone (no sample body): ${skipped.join(', ')}`);
    expect(typeErrors(lines.join('\n'))).toEqual([]);
  });
});
