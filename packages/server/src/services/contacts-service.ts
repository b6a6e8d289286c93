import { randomUUID } from 'node:crypto';
import type { createContact, EndpointBody, EndpointQuery, listContacts, updateContact, V1Contact } from '@vsf/contract';
import { notFound } from '../errors/api-http-error.js';
import { contactsTable, customersTable } from '../repositories/tables.js';
import type { ListResult } from '../repositories/team-scoped-table.js';
import { checkReferences } from './check-references.js';
import type { ServiceDeps } from './service-deps.js';

export class ContactsService {
  constructor(private readonly deps: ServiceDeps) {}

  list(teamId: string, query: EndpointQuery<typeof listContacts>): Promise<ListResult<V1Contact>> {
    return contactsTable.list(this.deps.db, teamId, query, (q) => {
      if (query.customerId) q.where('contacts.customer_id', query.customerId);
    });
  }

  async get(teamId: string, contactId: string): Promise<V1Contact> {
    const contact = await contactsTable.findById(this.deps.db, teamId, contactId);
    if (!contact) throw notFound('Contact');
    return contact;
  }

  async create(teamId: string, body: EndpointBody<typeof createContact>): Promise<V1Contact> {
    await checkReferences(this.deps.db, teamId, [
      { path: 'customerId', id: body.customerId, table: customersTable, resource: 'Customer' },
    ]);
    return contactsTable.insert(
      this.deps.db,
      teamId,
      { role: 'other', isPrimary: false, canAccessPortal: false, ...body, id: randomUUID() },
      this.deps.now(),
    );
  }

  async update(teamId: string, contactId: string, body: EndpointBody<typeof updateContact>): Promise<V1Contact> {
    const contact = await contactsTable.update(this.deps.db, teamId, contactId, body, this.deps.now());
    if (!contact) throw notFound('Contact');
    return contact;
  }

  async delete(teamId: string, contactId: string): Promise<{ id: string; deleted: true }> {
    if (!(await contactsTable.delete(this.deps.db, teamId, contactId))) throw notFound('Contact');
    return { id: contactId, deleted: true };
  }
}
