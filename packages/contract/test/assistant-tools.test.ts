import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ASSISTANT_TOOLS_FILE, assistantToolsSource } from '../scripts/assistant-tools-source.js';
import { ASSISTANT_TOOLS } from '../src/assistant-tools/index.js';
import {
  apiEndpoints,
  deriveAssistantTools,
  pathParamNames,
  toolAllowed,
  toolHttpRequest,
  toolNameOf,
} from '../src/index.js';

describe('assistant tools', () => {
  it('src/generated/assistant-tools.ts matches the contract (run `pnpm generate` if this fails)', () => {
    const onDisk = readFileSync(new URL(`../${ASSISTANT_TOOLS_FILE}`, import.meta.url), 'utf8');
    expect(onDisk).toBe(assistantToolsSource());
    expect(ASSISTANT_TOOLS).toEqual(deriveAssistantTools());
  });

  it('offers every operation of the API once, under a name MCP clients accept', () => {
    const tools = deriveAssistantTools();
    const operations = Object.values(apiEndpoints).filter((e) => e.surface === 'v1');
    expect(tools.map((t) => t.operationId).sort()).toEqual(operations.map((e) => e.operationId).sort());
    const names = new Set(tools.map((t) => t.name));
    expect(names.size).toBe(tools.length);
    for (const tool of tools) expect(tool.name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
  });

  it('never gives a path, query and body parameter the same name (the input schema joins them)', () => {
    for (const tool of deriveAssistantTools()) {
      const names = [...tool.pathParams, ...tool.queryParams, ...tool.bodyParams];
      expect(new Set(names).size, tool.name).toBe(names.length);
      expect(Object.keys(tool.inputSchema.properties ?? {}).sort(), tool.name).toEqual([...names].sort());
      expect(tool.pathParams).toEqual(pathParamNames(tool.path));
    }
  });

  it('marks reads read-only and deletes and sends destructive', () => {
    const byName = new Map(deriveAssistantTools().map((t) => [t.name, t]));
    expect(byName.get('list_cars')?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(byName.get('delete_social_event')?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
    expect(byName.get('send_communication_message')?.annotations).toMatchObject({ destructiveHint: true });
    expect(byName.get('create_car')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(byName.get('download_media')?.outputSchema).toBeUndefined();
    expect(byName.get('get_car')?.outputSchema?.properties).toHaveProperty('data');
  });

  it('turns a call into the HTTP request: path, query and body parameters each in their place', () => {
    const byName = new Map(deriveAssistantTools().map((t) => [t.name, t]));
    const events = byName.get('create_car_event');
    if (!events) throw new Error('create_car_event missing');
    expect(toolHttpRequest(events, { carId: 'c/1', activityType: 'drop_off', extra: 1 })).toEqual({
      method: 'POST',
      url: '/api/v1/cars/c%2F1/events',
      body: { activityType: 'drop_off', extra: 1 },
    });
    const list = byName.get('list_cars');
    if (!list) throw new Error('list_cars missing');
    expect(toolHttpRequest(list, { page: 2, ids: ['a', 'b'], bogus: 'x' })).toEqual({
      method: 'GET',
      url: '/api/v1/cars?page=2&ids=a%2Cb&bogus=x',
    });
  });

  it('lists a tool only for scopes its operation allows', () => {
    const byName = new Map(deriveAssistantTools().map((t) => [t.name, t]));
    const createCar = byName.get('create_car');
    if (!createCar) throw new Error('create_car missing');
    expect(toolAllowed(createCar, new Set(['read:cars', 'write:cars']))).toBe(true);
    expect(toolAllowed(createCar, new Set(['write:cars']))).toBe(false);
    const eventTypes = byName.get('list_event_types');
    if (!eventTypes) throw new Error('list_event_types missing');
    expect(toolAllowed(eventTypes, new Set(['read:appointments']))).toBe(true);
    expect(toolAllowed(eventTypes, new Set(['read:customers']))).toBe(false);
    expect(toolNameOf('getAuthKey')).toBe('get_auth_key');
  });
});
