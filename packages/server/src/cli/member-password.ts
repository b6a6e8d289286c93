import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';

/** Where a member's password may come from: never argv, which every user of the machine sees in `ps`. */
export const MEMBER_PASSWORD_ENV = 'VSF_MEMBER_PASSWORD';

/** The first line of stdin, without its line ending (`printf '%s\n' "$PW" | vsf-server members create …`). */
export function readPasswordLine(input: NodeJS.ReadableStream = process.stdin): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY, terminal: false });
    let line: string | undefined;
    lines.once('line', (text) => {
      line = text;
      lines.close();
    });
    lines.once('close', () => {
      if (line === undefined) reject(new Error('--password-stdin: stdin ended before a password line'));
      else resolve(line);
    });
    input.once('error', reject);
  });
}

/** Asks on the terminal with the typed characters hidden; the prompt goes to stderr so stdout stays JSON. */
export function promptPassword(question: string): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  return new Promise((resolve, reject) => {
    rl.question(question, (answer) => {
      rl.close();
      process.stderr.write('\n');
      resolve(answer);
    });
    muted = true;
    rl.once('SIGINT', () => {
      rl.close();
      process.stderr.write('\n');
      reject(new Error('Cancelled'));
    });
  });
}

/**
 * A member's password, from `--password-stdin`, else `VSF_MEMBER_PASSWORD`, else asked twice on a terminal.
 * Never from an argument. Without a terminal and without either source it fails, saying what to use.
 */
export async function memberPassword(options: { passwordStdin?: boolean }): Promise<string> {
  if (options.passwordStdin) return readPasswordLine();
  const fromEnv = process.env[MEMBER_PASSWORD_ENV];
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  if (!process.stdin.isTTY) {
    throw new Error(
      `No password: pass --password-stdin and write it as one line to stdin, or set ${MEMBER_PASSWORD_ENV} (a password is never taken from the command line)`,
    );
  }
  const first = await promptPassword('Password (at least 8 characters): ');
  const again = await promptPassword('Password again: ');
  if (first !== again) throw new Error('The two passwords differ; nothing was changed');
  return first;
}
