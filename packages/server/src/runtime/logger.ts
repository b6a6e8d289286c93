import { type DestinationStream, type Logger, pino } from 'pino';
import { type RedactOptions, redactText } from './log-redaction.js';

export interface LoggerOptions extends RedactOptions {
  /** Where lines go; stdout when absent (tests pass a sink). */
  destination?: DestinationStream;
}

/**
 * JSON logs on stdout. Credentials are removed twice: credential fields by path, then every finished
 * line is scrubbed of anything key-shaped and of the secrets this process knows (the admin token), so a
 * secret in a URL, an error message or any field added later never reaches the log.
 */
export function createLogger(
  level = process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'silent' : 'info'),
  options: LoggerOptions = {},
): Logger {
  const settings = {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers["x-api-key"]',
        'req.headers["proxy-authorization"]',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        'key',
        '*.key',
      ],
      censor: '[redacted]',
    },
    hooks: { streamWrite: (line: string) => redactText(line, options) },
  };
  return options.destination ? pino(settings, options.destination) : pino(settings);
}
