export * from './start-test-server.js';
