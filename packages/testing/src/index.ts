export {
  createMockApi,
  type InjectedFailure,
  MOCK_RESOURCES,
  type MockApi,
  type MockApiOptions,
  type ReceivedRequest,
} from './create-mock-api.js';
export type { MockClock } from './mock-clock.js';
export type { MockKeySpec, MockKeys } from './mock-keys.js';
export type { MockRecord } from './mock-store.js';
export { PARTLY_IMPLEMENTED, UNIMPLEMENTED_OPERATIONS } from './unimplemented.js';
