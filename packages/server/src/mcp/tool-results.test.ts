import { type AssistantTool, deriveAssistantTools } from '@vsf/contract';
import { describe, expect, it } from 'vitest';
import type { ApiAnswer } from './connector-call.js';
import { answerBody, toolResult, toolResultJson } from './tool-results.js';

const tools = new Map(deriveAssistantTools().map((tool) => [tool.name, tool]));
const tool = (name: string) => tools.get(name) as AssistantTool;
const json = (status: number, body: unknown): ApiAnswer => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  json: body === undefined ? '' : JSON.stringify(body),
});

describe('toolResultJson', () => {
  const record = {
    data: {
      id: 'c-1',
      make: 'Citroën "DS"',
      notes: 'line one\nline two\ttab \\ backslash \u2028 separator \u0000 nul 🚗 \ud800 lone',
      year: 1968,
      price: -0.5,
      tags: ['a', 'b'],
      owner: null,
      nested: { deep: [{ x: 1 }] },
    },
  };

  it('writes a record’s result around the API’s JSON: the same bytes as serializing the shaped result', () => {
    const answer = json(200, record);
    const fast = toolResultJson(tool('get_car'), answer);
    expect(fast).toBe(JSON.stringify(toolResult(tool('get_car'), answer)));
    expect(JSON.parse(fast)).toEqual({
      content: [{ type: 'text', text: JSON.stringify(record) }],
      structuredContent: JSON.parse(JSON.stringify(record)),
    });
    // A created record (201) too.
    const created = json(201, record);
    expect(toolResultJson(tool('create_car'), created)).toBe(JSON.stringify(toolResult(tool('create_car'), created)));
  });

  it('shapes every other answer as toolResult does: a page with its hint, a refusal, no content, bytes', () => {
    const page = json(200, { data: [record.data], page: 1, limit: 1, total: 3 });
    const refusal = json(404, { error: 'Car not found', code: 'not_found', details: null });
    const noContent = json(204, undefined);
    const list = json(200, [1, 2]);
    const image: ApiAnswer = { status: 200, headers: { 'content-type': 'image/png' }, bytes: Buffer.from([1, 2, 3]) };
    const binaryTool = [...tools.values()].find((candidate) => candidate.binaryResponse) as AssistantTool;
    const cases: [AssistantTool, ApiAnswer][] = [
      [tool('list_cars'), page],
      [tool('get_car'), refusal],
      [tool('get_car'), noContent],
      [tool('get_car'), list],
      [binaryTool, image],
    ];
    for (const [which, answer] of cases) {
      expect(toolResultJson(which, answer)).toBe(JSON.stringify(toolResult(which, answer)));
    }
    expect(JSON.parse(toolResultJson(tool('list_cars'), page)).content[1].text).toMatch(/next page/);
    expect(JSON.parse(toolResultJson(tool('get_car'), refusal))).toMatchObject({ isError: true });
  });

  it('parses a body only where one was sent', () => {
    expect(answerBody(json(200, record))).toEqual(JSON.parse(JSON.stringify(record)));
    expect(answerBody(json(204, undefined))).toBeUndefined();
    expect(answerBody({ status: 200, headers: {}, bytes: Buffer.from('x') })).toBeUndefined();
  });
});
