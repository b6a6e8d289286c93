export * from './core/api-promise.js';
export * from './core/client-options.js';
export * from './core/endpoint-types.js';
export * from './core/errors.js';
export { consoleLogger, type Logger, type LogLevel, parseLogLevel } from './core/logger.js';
export * from './core/page.js';
export type { PhotoBytes, PhotoSource } from './core/photo-file.js';
export type { PhotoUpload } from './extensions/cars-photos.js';
export type { FollowOptions } from './extensions/events.js';
export { adminEndpoints } from './generated/admin-endpoints.js';
export { apiEndpoints } from './generated/api-endpoints.js';
export { ALL_SCOPES, PHOTO_MAX_BYTES, type Scope } from './generated/constants.js';
// The photo check the server makes, so an application can refuse a non-image as the SDK does.
export { contentTypeMatches, detectImageType } from './generated/image-type.js';
// Plain interfaces of every record, body and query, generated from the contract's OpenAPI documents.
export type * from './generated/types.js';
export * from './generated/vsf-admin-client.js';
export * from './generated/vsf-client.js';
export { signWebhook, webhooks } from './webhooks/sign-webhook.js';
export {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  verifyWebhook,
  WEBHOOK_SIGNATURE_HEADER,
  WebhookVerificationError,
} from './webhooks/verify-webhook.js';
