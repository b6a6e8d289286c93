/**
 * Announced extensions (DESIGN.md): the header on every API response of a server that has some, naming
 * them; a client uses one only after a response announced it, and otherwise speaks the spec alone.
 */
export const EXTENSIONS_HEADER = 'Vsf-Extensions';

/**
 * `binary-upload`: a photo or marketing asset may be sent as the image's bytes (`Content-Type: image/*`),
 * the JSON body's other fields in the query: a third fewer bytes than base64 and no JSON to parse.
 */
export const SERVER_EXTENSIONS = ['binary-upload'] as const;
export type ServerExtension = (typeof SERVER_EXTENSIONS)[number];
