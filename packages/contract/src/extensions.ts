/**
 * Announced extensions (DESIGN.md): the header on every API response of a server that has some, naming
 * them; a client uses one only after a response announced it, and otherwise speaks the spec alone.
 */
export const EXTENSIONS_HEADER = 'Vsf-Extensions';

/**
 * `events`: `GET /api/v1/events`, the team's changes in commit order with a cursor, kept for the server's
 * retention (DESIGN.md: a cursor and tombstones are extensions).
 *
 * `webhooks`: `/api/v1/webhooks`, endpoints the team's events are POSTed to as they happen, signed with
 * each endpoint's secret, with a delivery log.
 *
 * `binary-upload`: a photo or marketing asset may be sent as the image's bytes (`Content-Type: image/*`),
 * the JSON body's other fields in the query: a third fewer bytes than base64 and no JSON to parse.
 */
export const SERVER_EXTENSIONS = ['binary-upload', 'events', 'webhooks'] as const;
export type ServerExtension = (typeof SERVER_EXTENSIONS)[number];
