import { type Logger, pino } from 'pino';

/** JSON logs on stdout; credentials are redacted wherever they would appear. */
export function createLogger(
  level = process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'silent' : 'info'),
): Logger {
  return pino({
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie', 'key', '*.key'],
      censor: '[redacted]',
    },
  });
}
