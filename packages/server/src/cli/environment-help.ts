// `vsf-server start --help` lists what configures the server. The README's Configuration table says the same
// at length; test/start-help.test.ts keeps the two naming the same variables.
const VARIABLES: [name: string, meaning: string][] = [
  ['PORT', 'port to listen on (default 3000; 0 picks a free one)'],
  ['HOST', 'interface to listen on (default 127.0.0.1; 0.0.0.0 in a container)'],
  ['DATABASE_URL', 'a postgres:// URL selects PostgreSQL; unset: embedded PGlite'],
  ['VSF_DATA_DIR', 'PGlite directory (default .vsf/data; memory:// for a throwaway database)'],
  ['VSF_ADMIN_TOKEN', 'enables the admin API at /admin/v1 and the /admin page (16+ characters)'],
  ['VSF_RATE_LIMIT', 'requests each API key may make per window (default 1200)'],
  ['VSF_RATE_LIMIT_WINDOW', 'the rate-limit window in seconds (default 60)'],
  [
    'VSF_RATE_LIMIT_STORE',
    'memory, postgres or redis (default: redis with REDIS_URL, else postgres with DATABASE_URL, else memory)',
  ],
  [
    'VSF_RATE_LIMIT_LEASE',
    'with a shared store (postgres, redis): most points of a key one instance leases per round trip (default 32; 1 counts every request in the store)',
  ],
  ['REDIS_URL', 'share rate-limit counts across instances through this Redis (redis://host:6379)'],
  ['VSF_KEY_CACHE_SIZE', 'verified API keys cached per instance (default 10000; 0 turns the cache off)'],
  ['VSF_KEY_CACHE_TTL_MS', 'how long a cached key is trusted at most (default 30000)'],
  ['VSF_AUTH_FAILURE_LIMIT', 'failed authentications each client address may make per window (default 60)'],
  ['VSF_TRUST_PROXY', 'proxies trusted to name the client in X-Forwarded-For (Express trust proxy; default none)'],
  ['VSF_DEMO', '1: create the demo team on a brand-new database; 0: never (default: on PGlite only)'],
  ['VSF_MEDIA_DIR', 'where photo bytes are stored (default: beside VSF_DATA_DIR)'],
  ['VSF_S3_BUCKET', 'store photo bytes in this S3-compatible bucket instead'],
  ['VSF_S3_ENDPOINT', 'the S3 endpoint (with VSF_S3_BUCKET)'],
  ['VSF_S3_REGION', 'the S3 region (with VSF_S3_BUCKET)'],
  ['VSF_S3_PREFIX', 'key prefix inside the bucket (with VSF_S3_BUCKET)'],
  ['VSF_S3_PART_SIZE_MB', 'objects larger than this go up as multipart uploads in parts of this size (default 5)'],
  ['VSF_SMTP_URL', 'deliver email through this SMTP server (smtp:// or smtps://); unset: local outbox'],
  ['VSF_EMAIL_FROM', 'the sender of email (default vsf@localhost)'],
  ['VSF_TWILIO_ACCOUNT_SID', "deliver SMS through Twilio's Messages API; unset: local outbox"],
  ['VSF_TWILIO_AUTH_TOKEN', 'the Twilio auth token'],
  ['VSF_TWILIO_BASE_URL', 'a Twilio-compatible API instead of Twilio'],
  ['VSF_SMS_FROM', 'the sending number of SMS (default +10000000000)'],
  ['VSF_EVENTS_RETENTION_DAYS', 'days the events feed keeps each change (default 30; older cursors answer 410)'],
  [
    'VSF_WEBHOOK_ALLOW_HTTP_LOOPBACK',
    '1: webhooks may also deliver to http://127.0.0.1:<port> (tests, local development); default 0: https only',
  ],
  [
    'VSF_PUBLIC_URL',
    "the https origin clients reach the server at (the assistant connector's OAuth issuer; default: where it listens)",
  ],
  ['VSF_ACCESS_TOKEN_SECONDS', "lifetime of an assistant's access token (default 3600; 60 to 86400)"],
  ['VSF_REFRESH_TOKEN_DAYS', "lifetime of an assistant's refresh token, from its last use (default 30; 1 to 365)"],
  ['LOG_LEVEL', 'pino level of the JSON request logs (default info; silent mutes them)'],
];

export const ENVIRONMENT_VARIABLES = VARIABLES.map(([name]) => name);

const width = Math.max(...ENVIRONMENT_VARIABLES.map((name) => name.length));
export const ENVIRONMENT_HELP = [
  '',
  'Environment variables:',
  ...VARIABLES.map(([name, meaning]) => `  ${name.padEnd(width)}  ${meaning}`),
].join('\n');
