import { z } from '../zod.js';
import { JsonKey } from './bounds.js';
import { Timestamp, Uuid } from './common.js';
import { teamRecord } from './team-record.js';

export const FORM_FIELD_TYPES = [
  'text',
  'textarea',
  'email',
  'phone',
  'number',
  'boolean',
  'date',
  'select',
  'multiselect',
] as const;
export const FormFieldType = z.enum(FORM_FIELD_TYPES).openapi('FormFieldType', {
  description: [
    'What a submitted value must be: `text`/`textarea` a string, `email` an email address, `phone` a phone',
    'number (digits with optional `+`, spaces, dashes, dots, parentheses), `number` a JSON number, `boolean` true',
    'or false, `date` a `YYYY-MM-DD` calendar date, `select` one of `options`, `multiselect` an array of distinct',
    '`options`.',
  ].join(' '),
});
export type FormFieldType = z.infer<typeof FormFieldType>;

export const MAX_FORM_FIELDS = 100;

/** A field as stored and returned: `options` is null for types without choices. */
export const V1FormField = z
  .object({
    key: z.string().openapi({ description: 'The key of this field’s answer in a submission’s `values`' }),
    label: z.string(),
    type: FormFieldType,
    required: z.boolean(),
    options: z.array(z.string()).nullable().openapi({ description: 'The choices of a `select`/`multiselect`' }),
  })
  .openapi('V1FormField');
export type V1FormField = z.infer<typeof V1FormField>;

export const V1FormFieldInput = z
  .strictObject({
    key: z
      .string()
      .max(64)
      .regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'Expected a letter then up to 63 letters, digits or underscores')
      .openapi({ example: 'firstName' }),
    label: z.string().min(1).max(200).openapi({ example: 'First name' }),
    type: FormFieldType,
    required: z.boolean().optional().openapi({ description: 'Default false' }),
    options: z
      .array(z.string().min(1).max(200))
      .min(1)
      .max(100)
      .optional()
      .openapi({ description: 'Required for `select` and `multiselect`, refused for the other types' }),
  })
  .superRefine((f, ctx) => {
    const choices = f.type === 'select' || f.type === 'multiselect';
    if (choices && f.options === undefined)
      ctx.addIssue({ code: 'custom', path: ['options'], message: `A ${f.type} field needs options` });
    if (!choices && f.options !== undefined)
      ctx.addIssue({ code: 'custom', path: ['options'], message: `A ${f.type} field takes no options` });
    if (f.options && new Set(f.options).size !== f.options.length)
      ctx.addIssue({ code: 'custom', path: ['options'], message: 'Options must be distinct' });
  })
  .openapi('V1FormFieldInput');
export type V1FormFieldInput = z.input<typeof V1FormFieldInput>;

/** Fields as a form example shows them: `options` only on a choice (a text field with options is refused). */
const FORM_FIELDS_EXAMPLE = [
  { key: 'email', label: 'Email', type: 'email', required: true },
  { key: 'interest', label: 'Interest', type: 'select', options: ['storage', 'detailing'] },
];

const FormFields = z
  .array(V1FormFieldInput)
  .max(MAX_FORM_FIELDS)
  .superRefine((fields, ctx) => {
    const seen = new Set<string>();
    fields.forEach((f, i) => {
      if (seen.has(f.key)) ctx.addIssue({ code: 'custom', path: [i, 'key'], message: `Duplicate key ${f.key}` });
      seen.add(f.key);
    });
  })
  .openapi({
    description: `Up to ${MAX_FORM_FIELDS} fields with distinct keys, in display order`,
    example: FORM_FIELDS_EXAMPLE,
  });

export const V1Form = teamRecord(
  'V1Form',
  {
    name: z.string(),
    description: z.string().nullable(),
    fields: z.array(V1FormField),
    isActive: z.boolean().openapi({ description: 'An inactive form refuses new submissions (409)' }),
  },
  'A marketing form (sign-up, enquiry, event interest) with typed fields. Changing the fields never changes earlier submissions: each keeps a `fieldSnapshot`.',
);
export type V1Form = z.infer<typeof V1Form>;

export const V1FormCreate = z
  .strictObject({
    name: z.string().min(1).max(200),
    description: z.string().max(2000).nullable().optional(),
    fields: FormFields,
    isActive: z.boolean().optional().openapi({ description: 'Default true' }),
  })
  .openapi('V1FormCreate');
export type V1FormCreate = z.input<typeof V1FormCreate>;

export const V1FormUpdate = z
  .strictObject({
    name: z.string().min(1).max(200).optional(),
    description: z.string().max(2000).nullable().optional(),
    fields: FormFields.optional().openapi({ description: 'Replaces the whole field list' }),
    isActive: z.boolean().optional(),
  })
  .openapi('V1FormUpdate');
export type V1FormUpdate = z.input<typeof V1FormUpdate>;

/** Exactly the spec's Form submission object. */
export const V1FormSubmission = z
  .object({
    id: Uuid,
    formId: Uuid,
    teamId: z.string(),
    customerId: Uuid.nullable().openapi({
      description:
        'The customer with `respondentEmail`, found or created when the submitting key had `read:customers` and `write:customers`; otherwise null',
    }),
    respondentEmail: z.string().nullable(),
    respondentName: z.string().nullable(),
    respondentPhone: z.string().nullable(),
    values: z.record(z.string(), z.unknown()).openapi({ description: 'Answers by field key' }),
    fieldSnapshot: z.array(V1FormField).openapi({ description: 'The form’s fields when this was submitted' }),
    metadata: z.record(z.string(), z.unknown()).openapi({ description: 'What the caller sent (page URL, UTM, …)' }),
    submittedAt: Timestamp,
  })
  .openapi('V1FormSubmission');
export type V1FormSubmission = z.infer<typeof V1FormSubmission>;

export const V1FormSubmissionCreate = z
  .strictObject({
    values: z.record(JsonKey, z.unknown()).openapi({
      description: 'Answers by field key, validated against the form’s fields',
      // The answers to the form example's fields.
      example: { email: 'jane.doe@example.com', interest: 'storage' },
    }),
    respondentEmail: z.email().max(320).optional().openapi({
      description:
        'Default: the answer of the form’s first `email` field. Links or creates the customer (with `read:customers` and `write:customers`).',
    }),
    respondentName: z.string().min(1).max(200).optional(),
    respondentPhone: z.string().min(1).max(50).optional().openapi({
      description: 'Default: the answer of the form’s first `phone` field',
    }),
    metadata: z.record(JsonKey, z.unknown()).optional().openapi({
      description: 'Free-form context kept with the submission (page URL, campaign, user agent); default {}',
    }),
  })
  .openapi('V1FormSubmissionCreate');
export type V1FormSubmissionCreate = z.input<typeof V1FormSubmissionCreate>;
