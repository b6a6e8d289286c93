/** What the CLI reads of an OpenAPI 3.0 field schema to convert a `--set` value (references already inlined). */
export interface FieldSchema {
  type?: string;
  nullable?: boolean;
  enum?: unknown[];
  format?: string;
  items?: FieldSchema;
  anyOf?: FieldSchema[];
  oneOf?: FieldSchema[];
}
