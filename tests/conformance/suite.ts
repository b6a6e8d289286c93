import { type EndpointDefinition, serverPath } from '@vsf/contract';
import { apiEndpoints as routes, VsfClient, VsfError } from '@vsf/sdk';
import { UNIMPLEMENTED_OPERATIONS } from '@vsf/testing';
import { type ContractResource, contractResources, inputSchemaOf, plainTextField, sampleOf } from './sample-bodies.js';
import type { KeyName, Target } from './targets.js';

/** What one check saw, normalized by the caller; the two targets' observations must be equal. */
export type Observe = (name: string, value: unknown) => void;

/** An error as the client got it: status, code, message and details. */
export const refusal = (error: unknown) => {
  if (!(error instanceof VsfError)) throw error;
  return { status: error.status, code: error.code, message: error.message, details: error.details ?? null };
};

type Route = (typeof routes)[keyof typeof routes];
const route = (endpoint: EndpointDefinition) => routes[endpoint.operationId as keyof typeof routes] as Route;

export const client = (target: Target, key: KeyName) =>
  new VsfClient({ apiKey: target.keys[key], baseUrl: target.baseUrl, logLevel: 'off', maxRetries: 0 });

const resources = contractResources();
const byItemParam = new Map(resources.map((r) => [r.itemParam, r]));

/** The resources whose create the mock implements; the others are printed as left out, and skipped on both. */
export const covered = resources.filter(
  (r) => r.operations.create && !(r.operations.create.operationId in UNIMPLEMENTED_OPERATIONS),
);

/**
 * Creates a record of `resource` from its create body's schema, creating first every record it needs (its
 * parents, the ids its body must name); `undefined` when a required id names no resource (a photo's session).
 */
export async function createSample(
  api: VsfClient,
  resource: ContractResource,
): Promise<{ record: Record<string, unknown> & { id: string }; params: Record<string, string> } | undefined> {
  const params: Record<string, string> = {};
  const reference = async (field: string): Promise<string | undefined> => {
    const target = byItemParam.get(field);
    if (!target?.operations.create || target.operations.create.operationId in UNIMPLEMENTED_OPERATIONS)
      return undefined;
    return (await createSample(api, target))?.record.id;
  };
  for (const param of resource.parentParams) {
    const id = await reference(param);
    if (!id) return undefined;
    params[param] = id;
  }
  const create = resource.operations.create as EndpointDefinition;
  const body = create.body ? await sampleOf(inputSchemaOf(create.body), '', reference) : undefined;
  if (create.body && body === undefined) return undefined;
  const record = (await api.request<Record<string, unknown> & { id: string }>(route(create), {
    params,
    body,
  })) as Record<string, unknown> & { id: string };
  return { record, params };
}

/** Every covered resource: create, get, list, update and delete as the contract declares them. */
export async function crudOf(api: VsfClient, resource: ContractResource, observe: Observe): Promise<void> {
  try {
    await crud(api, resource, observe);
  } catch (error) {
    observe(`${resource.namespace} failed`, refusal(error));
  }
}

async function crud(api: VsfClient, resource: ContractResource, observe: Observe): Promise<void> {
  const created = await createSample(api, resource);
  if (!created) {
    observe(`${resource.namespace}: no sample`, true);
    return;
  }
  const { record, params } = created;
  const item = { ...params, [resource.itemParam]: record.id };
  observe(`${resource.namespace}.create`, record);
  const { get, list, update, delete: remove } = resource.operations;
  if (get)
    observe(
      `${resource.namespace}.get equals create`,
      (await api.request<unknown>(route(get), { params: item })) ?? null,
    );
  if (list) {
    const page = (await api.request<{ data: { id: string }[]; total: number }>(route(list), {
      params,
      query: { ids: [record.id] },
    })) as unknown as {
      data: { id: string }[];
      total: number;
    };
    observe(`${resource.namespace}.list by id`, { total: page.total, ids: page.data.map((r) => r.id === record.id) });
  }
  if (update && !(update.operationId in UNIMPLEMENTED_OPERATIONS) && update.body) {
    const field = plainTextField(inputSchemaOf(update.body));
    if (field) {
      const body = { [field]: 'Changed' };
      observe(
        `${resource.namespace}.update ${field}`,
        await api.request<unknown>(route(update), { params: item, body }),
      );
    }
  }
  if (remove) {
    observe(`${resource.namespace}.delete`, await api.request<unknown>(route(remove), { params: item }).catch(refusal));
    if (get)
      observe(
        `${resource.namespace}.get after delete`,
        await api.request<unknown>(route(get), { params: item }).catch(refusal),
      );
  }
}

/** The URL of an operation, for the checks that need a raw request (no key, a bad header). */
export const urlOf = (target: Target, endpoint: EndpointDefinition) =>
  `${target.baseUrl.replace(/\/api\/v1$/, '')}${serverPath(endpoint)}`;
