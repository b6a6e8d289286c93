import { randomUUID } from 'node:crypto';
import type {
  createFormSubmission,
  EndpointBody,
  V1Form,
  V1FormField,
  V1FormFieldInput,
  V1FormSubmission,
} from '@vsf/contract';
import { V1CustomerCreate } from '@vsf/contract';
import { conflict, validationFailed } from '../../errors/api-http-error.js';
import { customersTable, formSubmissionsTable } from '../../repositories/tables.js';
import type { Executor } from '../../repositories/team-scoped-table.js';
import { firstAnswerOfType, formValueProblems } from '../form-values.js';
import type { ServiceDeps } from '../service-deps.js';
import { TeamResource } from '../standard/team-resource.js';

/** Stored fields always carry `required` and `options`, so snapshots read the same whatever was sent. */
const normalizeFields = (fields: readonly V1FormFieldInput[]): V1FormField[] =>
  fields.map((f) => ({
    key: f.key,
    label: f.label,
    type: f.type,
    required: f.required ?? false,
    options: f.options ?? null,
  }));

/** Creating or updating a customer from a submission is a customers write: the key needs both scopes. */
const CUSTOMER_SCOPES = ['read:customers', 'write:customers'] as const;

/**
 * The customer a submission would create, or undefined when it would not pass the API's own customer create
 * schema: the first word of the respondent's name is `firstName` and the rest `lastName`, so a one-word
 * name (or none) makes no customer rather than one with an empty last name that `PATCH /customers` refuses.
 */
export function customerFromSubmission(
  name: string | undefined,
  email: string,
  phone: string | undefined,
): V1CustomerCreate | undefined {
  const [firstName, ...rest] = (name ?? '').trim().split(/\s+/).filter(Boolean);
  const candidate = { firstName, lastName: rest.join(' '), email, phone: phone ?? null, isActive: true };
  const parsed = V1CustomerCreate.safeParse(candidate);
  return parsed.success ? parsed.data : undefined;
}

/** Forms: fields are stored normalized; a submission may find or create the respondent's customer. */
export class Forms extends TeamResource<V1Form> {
  constructor(deps: ServiceDeps) {
    super(deps, 'marketing.forms', {
      defaults: { description: null, isActive: true },
      write: (body) => (body.fields ? { ...body, fields: normalizeFields(body.fields as V1FormFieldInput[]) } : body),
    });
  }

  /** `scopes` are the calling key's: they decide whether the submission may find or create a customer. */
  async submit(
    teamId: string,
    formId: string,
    body: EndpointBody<typeof createFormSubmission>,
    scopes: ReadonlySet<string>,
  ): Promise<V1FormSubmission> {
    const form = await this.get(teamId, formId);
    if (!form.isActive) throw conflict('The form is closed (isActive is false); reopen it to accept submissions');
    const problems = formValueProblems(form.fields, body.values);
    if (problems.length > 0) throw validationFailed(problems);

    const email = body.respondentEmail ?? firstAnswerOfType(form.fields, body.values, 'email');
    const phone = body.respondentPhone ?? firstAnswerOfType(form.fields, body.values, 'phone');
    const name = body.respondentName;
    return this.deps.db.transaction(async (trx) => {
      const now = this.deps.now();
      const mayTouchCustomers = CUSTOMER_SCOPES.every((scope) => scopes.has(scope));
      const customerId =
        email && mayTouchCustomers ? await this.customerFor(trx, teamId, email, name, phone, now) : null;
      return formSubmissionsTable.insert(
        trx,
        teamId,
        {
          id: randomUUID(),
          formId,
          customerId,
          respondentEmail: email ?? null,
          respondentName: name ?? null,
          respondentPhone: phone ?? null,
          values: body.values,
          fieldSnapshot: form.fields,
          metadata: body.metadata ?? {},
          submittedAt: now.toISOString(),
        },
        now,
      );
    });
  }

  /** The team's (oldest, not deleted) customer with this email, or a new one when the respondent makes a valid one. */
  private async customerFor(
    db: Executor,
    teamId: string,
    email: string,
    name: string | undefined,
    phone: string | undefined,
    now: Date,
  ): Promise<string | null> {
    // Two submissions with a new email at once must not create two customers: serialize per team and email.
    await db.raw('select pg_advisory_xact_lock(hashtext(?))', [`form-customer:${teamId}:${email.toLowerCase()}`]);
    const existing = await customersTable
      .scoped(db, teamId)
      .whereRaw('lower(customers.email) = ?', [email.toLowerCase()])
      .whereNull('customers.deleted_at')
      .orderBy([
        { column: 'customers.created_at', order: 'asc' },
        { column: 'customers.id', order: 'asc' },
      ])
      .first('customers.id');
    if (existing) return existing.id as string;
    const fields = customerFromSubmission(name, email, phone);
    if (!fields) return null;
    const customer = await customersTable.insert(db, teamId, { isActive: true, ...fields, id: randomUUID() }, now);
    return customer.id;
  }
}
