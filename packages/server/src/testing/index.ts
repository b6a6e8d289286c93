export * from './grant-token.js';
export * from './s3-test-server.js';
export * from './start-test-server.js';
