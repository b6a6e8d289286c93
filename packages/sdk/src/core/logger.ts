export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off';

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, off: 100 };

export function parseLogLevel(value: string | undefined): LogLevel | undefined {
  return value && value in ORDER ? (value as LogLevel) : undefined;
}

/** Filters by level and redacts the API key from every message and field, whatever the logger is. */
export function levelledLogger(level: LogLevel, target: Logger, secrets: string[]): Logger {
  const redact = (text: string) => secrets.reduce((t, s) => (s ? t.split(s).join(redactKey(s)) : t), text);
  const emit = (at: Exclude<LogLevel, 'off'>) => (message: string, fields?: Record<string, unknown>) => {
    if (ORDER[at] < ORDER[level]) return;
    const safeFields = fields ? (JSON.parse(redact(JSON.stringify(fields))) as Record<string, unknown>) : undefined;
    target[at](redact(message), safeFields);
  };
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
}

/** `vsf_abc123def456.****`: enough to tell keys apart, never enough to use one. */
export function redactKey(key: string): string {
  const dot = key.indexOf('.');
  return dot > 0 ? `${key.slice(0, dot)}.****` : '****';
}

export const consoleLogger: Logger = {
  debug: (m, f) => console.debug(`[vsf] ${m}`, f ?? ''),
  info: (m, f) => console.info(`[vsf] ${m}`, f ?? ''),
  warn: (m, f) => console.warn(`[vsf] ${m}`, f ?? ''),
  error: (m, f) => console.error(`[vsf] ${m}`, f ?? ''),
};
