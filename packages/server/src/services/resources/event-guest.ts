import { validationFailed } from '../../errors/api-http-error.js';
import { contactsTable, customersTable } from '../../repositories/tables.js';
import type { Executor } from '../../repositories/team-scoped-table.js';
import { checkReferences } from '../check-references.js';

export interface Guest {
  customerId: string | null;
  contactId: string | null;
}

/** The customer (and contact) an invite or RSVP body names; a contact brings its customer. */
export async function guestOf(
  db: Executor,
  teamId: string,
  body: { customerId?: string | undefined; contactId?: string | undefined },
): Promise<Guest> {
  if (body.contactId) {
    const contact = await contactsTable.findById(db, teamId, body.contactId);
    if (!contact) throw validationFailed([{ path: 'contactId', message: 'Contact not found' }]);
    if (body.customerId && body.customerId !== contact.customerId)
      throw validationFailed([{ path: 'contactId', message: 'The contact belongs to another customer' }]);
    return { customerId: contact.customerId, contactId: contact.id };
  }
  await checkReferences(db, teamId, [
    { path: 'customerId', id: body.customerId, table: customersTable, resource: 'Customer' },
  ]);
  return { customerId: body.customerId ?? null, contactId: null };
}
