import { grantToken } from '@vsf/server/testing';
import type { BenchContext } from './lib/bench-context.js';
import { type Figure, figure, median } from './lib/figure.js';
import { interleaved } from './throughput.js';

/**
 * The assistant connector's cost: a read tool call (`tools/call get_car` over MCP's Streamable HTTP,
 * with an OAuth access token) against the same read as a plain `GET /cars/:id` with an API key, on the
 * same server, measured in turn. The call runs the same request path in-process, plus JSON-RPC and the
 * MCP server of the request, so its cost is the HTTP request's and that overhead.
 */
export async function assistantTool(ctx: BenchContext): Promise<Figure[]> {
  const { server, small, db } = ctx;
  const [car] = await db.knex('cars').where({ team_id: small.teamId }).select('id').limit(1);
  const token = await grantToken(db.knex, small.teamId, ['read:cars'], server.origin);
  const call = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'get_car', arguments: { carId: car.id } },
  });
  const samples = await interleaved(
    { path: `/cars/${car.id}` },
    {
      http: { origin: server.baseUrl, headers: { authorization: `Bearer ${small.key}` } },
      tool: {
        origin: server.origin,
        headers: { authorization: `Bearer ${token}`, accept: 'application/json, text/event-stream' },
        load: { path: '/mcp', method: 'POST', body: call },
      },
    },
  );
  const tool = median(samples.tool ?? []);
  const http = median(samples.http ?? []);
  ctx.log(`assistant tool: get_car ${Math.round(tool)} req/s, GET /cars/:id ${Math.round(http)} req/s`);
  return [
    figure({
      id: 'assistant-read-tool',
      title: 'read tool call (MCP get_car) vs GET /cars/:id: cost at most 1.5x',
      unit: 'req/s',
      value: tool,
      floor: http,
      comparison: '>=',
      // Throughput at least 1/1.5 of the request's: each call costs at most 1.5 times as much.
      target: Math.round((1 / 1.5) * 1000) / 1000,
      floorIs: 'the same read as a plain HTTP request with an API key, on the same server, measured in turn',
      details: {
        toolRounds: (samples.tool ?? []).map(Math.round).join(', '),
        httpRounds: (samples.http ?? []).map(Math.round).join(', '),
        costRatio: Math.round((http / tool) * 1000) / 1000,
      },
    }),
  ];
}
