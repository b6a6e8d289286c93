import express from 'express';
import { describe, expect, it } from 'vitest';
import { weakEtag } from './weak-etag.js';

// Clients keep the ETags they were given: the server's must stay Express's own, byte for byte.
const expressWeakEtag = express().get('etag fn') as (body: string | Buffer, encoding?: BufferEncoding) => string;

describe('weakEtag', () => {
  it.each([
    ['empty', ''],
    ['ascii', '{"data":{"id":"1"}}'],
    ['multi-byte', '{"make":"Škoda","note":"🚗 ünïcødé"}'],
    ['long', JSON.stringify({ data: Array.from({ length: 500 }, (_, i) => ({ i, s: 'x'.repeat(i % 17) })) })],
  ])('matches Express for a %s string body', (_name, body) => {
    expect(weakEtag(body, 'utf8')).toBe(expressWeakEtag(body, 'utf8'));
  });

  it('matches Express for Buffers and other encodings', () => {
    const buffer = Buffer.from('{"bytes":"🚗"}');
    expect(weakEtag(buffer)).toBe(expressWeakEtag(buffer));
    expect(weakEtag(Buffer.alloc(0))).toBe(expressWeakEtag(Buffer.alloc(0)));
    expect(weakEtag('caf\u00e9', 'latin1')).toBe(expressWeakEtag('caf\u00e9', 'latin1'));
  });
});
