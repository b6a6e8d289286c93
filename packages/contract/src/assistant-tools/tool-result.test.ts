import { describe, expect, it } from 'vitest';
import { ASSISTANT_TOOLS } from './index.js';
import { assistantToolResult, toolErrorResult, toolListEntry } from './tool-result.js';

const tool = (name: string) => {
  const found = ASSISTANT_TOOLS.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
};

describe('assistant tool results', () => {
  it('gives a record as structured content and the same JSON as text', () => {
    const body = { data: { id: 'c1', make: 'Ford' } };
    expect(assistantToolResult(tool('get_car'), { status: 200, body })).toEqual({
      content: [{ type: 'text', text: JSON.stringify(body) }],
      structuredContent: body,
    });
  });

  it('follows a page of a list with how to ask for the next one', () => {
    const body = { data: [{ id: 'c1' }], page: 1, limit: 1, total: 3 };
    const result = assistantToolResult(tool('list_cars'), { status: 200, body });
    expect(result.structuredContent).toEqual(body);
    expect(result.content[1]).toEqual({
      type: 'text',
      text: 'Page 1: records up to 1 of 3. For the next page call list_cars with the same arguments and page=2.',
    });
  });

  it('gives a refusal as an error result with the API’s body and status, without structured content', () => {
    const body = { error: 'Missing scope', code: 'forbidden', details: null };
    const result = assistantToolResult(tool('create_car'), { status: 403, body });
    expect(result).toEqual({
      isError: true,
      content: [{ type: 'text', text: JSON.stringify({ status: 403, ...body }) }],
    });
    expect(JSON.parse((toolErrorResult(502, undefined).content[0] as { text: string }).text)).toEqual({
      status: 502,
      error: 'The API answered without a JSON body',
      code: 'internal_error',
      details: null,
    });
  });

  it('gives bytes as an image with their media type', () => {
    expect(
      assistantToolResult(tool('download_media'), {
        status: 200,
        body: undefined,
        contentType: 'image/png; charset=binary',
        base64: 'iVBORw0KGgo=',
      }),
    ).toEqual({ content: [{ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }] });
  });

  it('lists a tool by what an assistant needs, not how it maps to HTTP', () => {
    const entry = toolListEntry(tool('list_cars'));
    expect(Object.keys(entry).sort()).toEqual(
      ['annotations', 'description', 'inputSchema', 'name', 'outputSchema', 'title'].sort(),
    );
    expect(toolListEntry(tool('download_media'))).not.toHaveProperty('outputSchema');
  });
});
