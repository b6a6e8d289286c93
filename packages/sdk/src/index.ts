export type * from '@vsf/contract';
// The photo check the server makes; zod-free, so these stay values (a type-only re-export of them would be
// declared as values by the contract's own re-export, and be undefined at run time).
export { contentTypeMatches, detectImageType } from '@vsf/contract/image-type';
export * from './core/api-promise.js';
export * from './core/client-options.js';
export * from './core/endpoint-types.js';
export * from './core/errors.js';
export { consoleLogger, type Logger, type LogLevel, parseLogLevel } from './core/logger.js';
export * from './core/page.js';
export type { PhotoBytes, PhotoSource } from './core/photo-file.js';
export type { PhotoUpload } from './extensions/cars-photos.js';
export type { FollowOptions } from './extensions/events.js';
// Named, not `*`: the contract exports values of the same names (with schemas); these are the SDK's plain ones.
export { adminEndpoints } from './generated/admin-endpoints.js';
export { apiEndpoints } from './generated/api-endpoints.js';
export { ALL_SCOPES, PHOTO_MAX_BYTES } from './generated/constants.js';
export * from './generated/vsf-admin-client.js';
export * from './generated/vsf-client.js';
export { signWebhook, webhooks } from './webhooks/sign-webhook.js';
export {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  verifyWebhook,
  WEBHOOK_SIGNATURE_HEADER,
  WebhookVerificationError,
} from './webhooks/verify-webhook.js';
