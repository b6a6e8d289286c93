import { existsSync } from 'node:fs';
import type { EndpointDefinition } from '@vsf/contract';
import { docComment } from './doc-comment.js';
import type { OperationTypes } from './render-types.js';

export interface ClientSpec {
  className: string;
  /** The generated module's name in src/generated/ (`vsf-client`). */
  module: string;
  /** The contract's endpoint map, keyed by operation id. */
  endpoints: Record<string, EndpointDefinition>;
  /** The generated route table's export name and module (`apiEndpoints` in `./api-endpoints.js`). */
  routes: { name: string; module: string };
  /** The named types of each operation's body, query and result (`./types.js`). */
  types: Record<string, OperationTypes>;
  constructorBody: string;
  optionsType: string;
  extensionsDir: string;
}

interface Node {
  path: string[];
  endpoints: EndpointDefinition[];
  children: Map<string, Node>;
}

const pascal = (parts: string[]) => parts.map((p) => p.charAt(0).toUpperCase() + p.slice(1)).join('');
const kebab = (parts: string[]) => parts.map((p) => p.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)).join('-');
const className = (path: string[]) => `${pascal(path)}Resource`;

function tree(endpoints: EndpointDefinition[]): Node {
  const root: Node = { path: [], endpoints: [], children: new Map() };
  for (const e of endpoints) {
    let node = root;
    for (const part of e.sdk.namespace) {
      let child = node.children.get(part);
      if (!child) {
        child = { path: [...node.path, part], endpoints: [], children: new Map() };
        node.children.set(part, child);
      }
      node = child;
    }
    node.endpoints.push(e);
  }
  return root;
}

function jsdoc(e: EndpointDefinition, indent: string): string {
  const scopes = [
    ...(e.scopes.all.length ? [e.scopes.all.map((s) => `\`${s}\``).join(' and ')] : []),
    ...(e.scopes.any?.length ? [`one of ${e.scopes.any.map((s) => `\`${s}\``).join(', ')}`] : []),
  ];
  const lines = [
    e.summary,
    ...(e.description ? ['', ...e.description.split('\n')] : []),
    '',
    `\`${e.method.toUpperCase()} ${e.basePath ?? ''}${e.path}\`${e.surface === 'v1' ? ` - scopes: ${scopes.length ? scopes.join(', plus ') : 'none'}` : ''}`,
    ...(e.fieldScopes ?? []).map(
      (rule) =>
        `\`${rule.field}\`${rule.values ? ` = ${rule.values.map((v) => `\`${String(v)}\``).join(' or ')}` : ''} also needs ${rule.scopes.all.map((s) => `\`${s}\``).join(' and ')} (${rule.effect})`,
    ),
  ];
  return docComment(lines, indent).join('\n');
}

/** A response that is not a page and carries more than `data` (`{data, nextCursor, hasMore}`) is returned whole. */
export function isEnvelope(e: EndpointDefinition): boolean {
  const shape = (e.response.schema as { shape?: Record<string, unknown> }).shape;
  return !e.paginated && !e.response.contentType && !!shape && Object.keys(shape).some((key) => key !== 'data');
}

function method(e: EndpointDefinition, types: OperationTypes): string[] {
  const id = e.operationId;
  const params = [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
  const args = params.map((p) => `${p}: string`);
  const route = `routes.${id}`;
  if (e.body) args.push(`body: ${types.body}`);
  // A query with required parameters (e.g. a calendar window) is a required argument.
  if (e.query) args.push(`query: ${types.query}${e.query.safeParse({}).success ? ' = {}' : ''}`);
  args.push('options?: RequestOptions');
  const callArgs = [
    params.length ? `params: { ${params.join(', ')} }` : '',
    e.body ? 'body' : '',
    e.query ? 'query' : '',
  ].filter(Boolean);
  const argObject = `{ ${callArgs.join(', ')} }`.replace('{  }', '{}');
  const out: string[] = [];
  if (e.paginated) {
    out.push(jsdoc(e, '  '));
    out.push(`  ${e.sdk.method}(${args.join(', ')}): PagePromise<${types.result}> {`);
    out.push(`    return this._client.requestPage(${route}, ${argObject}, options);`);
    out.push('  }', '');
    out.push(`  /** Every record of \`${e.sdk.method}\`, across pages of 200, fetched lazily. */`);
    out.push(`  ${e.sdk.method}All(${args.join(', ')}): AsyncGenerator<${types.result}> {`);
    out.push(`    return this._client.requestAll(${route}, ${argObject}, options);`);
    out.push('  }', '');
  } else {
    out.push(jsdoc(e, '  '));
    out.push(`  ${e.sdk.method}(${args.join(', ')}): APIPromise<${types.result}> {`);
    const call = e.response.contentType ? 'requestBinary' : isEnvelope(e) ? 'requestBody' : 'requestData';
    out.push(`    return this._client.${call}(${route}, ${argObject}, options);`);
    out.push('  }', '');
  }
  return out;
}

function typesOf(spec: Pick<ClientSpec, 'types'>, e: EndpointDefinition): OperationTypes {
  const types = spec.types[e.operationId];
  if (!types) throw new Error(`${e.operationId} has no generated types: is it in the OpenAPI document?`);
  return types;
}

/** The type names a module's methods or routes are written in, once each. */
function namedTypes(spec: Pick<ClientSpec, 'types'>, endpoints: EndpointDefinition[]): string[] {
  const names = endpoints.flatMap((e) => {
    const { body, query, result } = typesOf(spec, e);
    return [body, query, result?.replace(/\[\]$/, '')].filter((n): n is string => !!n && n !== 'Response');
  });
  return [...new Set(names)].sort();
}

/** Renders one client module: a resource class per namespace, nested as the contract's `sdk.namespace` says. */
export function renderClient(spec: ClientSpec): string {
  const endpoints = Object.values(spec.endpoints).sort((a, b) => a.operationId.localeCompare(b.operationId));
  const root = tree(endpoints);
  const classes: string[] = [];
  const extensions: string[] = [];

  const visit = (node: Node) => {
    for (const child of [...node.children.values()].sort((a, b) => a.path.join('.').localeCompare(b.path.join('.'))))
      visit(child);
    if (node.path.length === 0) return;
    const name = className(node.path);
    const extFile = `${kebab(node.path)}`;
    const hasExtension = existsSync(`${spec.extensionsDir}/${extFile}.ts`);
    if (hasExtension) extensions.push(`import { ${name}Extension } from '../extensions/${extFile}.js';`);
    const lines = [`export class ${name} extends ${hasExtension ? `${name}Extension` : 'APIResource'} {`];
    for (const [key, child] of [...node.children.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      lines.push(`  readonly ${key} = new ${className(child.path)}(this._client);`);
    }
    if (node.children.size) lines.push('');
    for (const e of [...node.endpoints].sort((a, b) => a.sdk.method.localeCompare(b.sdk.method)))
      lines.push(...method(e, typesOf(spec, e)));
    while (lines.at(-1) === '') lines.pop();
    lines.push('}');
    classes.push(lines.join('\n'));
  };
  visit(root);

  const top = [...root.children.entries()].sort(([a], [b]) => a.localeCompare(b));
  return [
    '// Generated by packages/sdk/scripts/generate.ts from @vsf/contract. Do not edit: run `pnpm generate`.',
    '/* eslint-disable */',
    "import type { APIPromise } from '../core/api-promise.js';",
    "import { APIResource } from '../core/api-resource.js';",
    "import { BaseClient } from '../core/base-client.js';",
    "import type { ClientOptions, RequestOptions } from '../core/client-options.js';",
    "import type { PagePromise } from '../core/page.js';",
    ...extensions.sort(),
    `import { ${spec.routes.name} as routes } from './${spec.routes.module}.js';`,
    `import type { ${namedTypes(spec, endpoints).join(', ')} } from './types.js';`,
    '',
    ...classes.flatMap((c) => [c, '']),
    `export class ${spec.className} extends BaseClient {`,
    ...top.map(([key, node]) => `  readonly ${key} = new ${className(node.path)}(this);`),
    '',
    `  constructor(options: ${spec.optionsType} = {}) {`,
    `    ${spec.constructorBody}`,
    '  }',
    '}',
    '',
  ].join('\n');
}

/**
 * Renders the route table of one client: per operation id, only what a request needs at run time (method,
 * path, paginated, idempotent), as plain data. Each entry carries its operation's named types, so
 * `client.request(apiEndpoints.getCar, …)` is typed like `client.cars.get` without loading a schema.
 */
export function renderRoutes(
  name: string,
  endpoints: Record<string, EndpointDefinition>,
  idempotent: (e: EndpointDefinition) => boolean,
  types: Record<string, OperationTypes>,
): string {
  const sorted = Object.values(endpoints).sort((a, b) => a.operationId.localeCompare(b.operationId));
  const entry = (e: EndpointDefinition) => {
    const data = {
      operationId: e.operationId,
      method: e.method,
      path: e.path,
      paginated: e.paginated === true,
      idempotent: idempotent(e),
      ...(e.basePath ? { basePath: e.basePath } : {}),
      ...(e.response.contentType ? { binary: true } : {}),
      ...(isEnvelope(e) ? { envelope: true } : {}),
    };
    const fields = Object.entries(data).map(([k, v]) => `${k}: ${typeof v === 'string' ? `'${v}'` : v}`);
    const t = typesOf({ types }, e);
    const routeTypes = `{ path: '${e.path}'; paginated: ${e.paginated === true}; query: ${t.query ?? 'undefined'}; body: ${t.body ?? 'undefined'}; result: ${t.result} }`;
    return `  ${e.operationId}: { ${fields.join(', ')} } as Route<${routeTypes}>,`;
  };
  return [
    '// Generated by packages/sdk/scripts/generate.ts from @vsf/contract. Do not edit: run `pnpm generate`.',
    '/* eslint-disable */',
    "import type { Route } from '../core/endpoint-types.js';",
    `import type { ${namedTypes({ types }, sorted).join(', ')} } from './types.js';`,
    '',
    '/** Every endpoint of this API by operation id, as the plain data a request needs; for `client.request()`. */',
    `export const ${name} = {`,
    ...sorted.map(entry),
    '} as const;',
    '',
  ].join('\n');
}
