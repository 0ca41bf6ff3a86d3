import { parseArgs } from 'node:util';

export const DEFAULT_CONSOLE_URL = 'http://127.0.0.1:8083';

export const USAGE = `Usage: npm run workspace -- apply -f <workspace.yaml|.json> [options]

Makes the console's sources and destinations match the file: creates, updates, and deletes
those the file does not name. Prints the plan (secrets masked) before applying it.

Options:
  -f, --file <path>    the workspace file (required)
  --dry-run            print the plan only
  --resend-secrets     also send secrets whose masks match the stored ones
  --url <url>          console base URL (env SWITCHYARD_CONSOLE_URL, default ${DEFAULT_CONSOLE_URL})
  --token <token>      an admin token (env SWITCHYARD_TOKEN or ADMIN_TOKEN); a viewer's is enough for --dry-run
  -h, --help           this text
`;

export interface ApplyOptions {
  file: string;
  dryRun: boolean;
  resendSecrets: boolean;
  url: string;
  token: string;
}

/** The command line understood, help asked for, or what is wrong with it. */
export type ParsedArgs = { options: ApplyOptions } | { help: true } | { usageError: string };

/** Reads the command line; flags win over the environment, which wins over the defaults. */
export function parseCliArgs(argv: string[], env: NodeJS.ProcessEnv): ParsedArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        file: { type: 'string', short: 'f' },
        'dry-run': { type: 'boolean', default: false },
        'resend-secrets': { type: 'boolean', default: false },
        url: { type: 'string' },
        token: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    return { usageError: (error as Error).message };
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true };
  if (positionals.length !== 1 || positionals[0] !== 'apply')
    return { usageError: `expected the command "apply", got ${JSON.stringify(positionals.join(' ') || '')}` };
  if (!values.file) return { usageError: 'apply needs -f <workspace file>' };
  const url = values.url ?? env.SWITCHYARD_CONSOLE_URL ?? DEFAULT_CONSOLE_URL;
  if (!/^https?:\/\/[^/]/.test(url))
    return { usageError: `--url must be an http or https URL, got "${url}"` };
  const token = values.token ?? env.SWITCHYARD_TOKEN ?? env.ADMIN_TOKEN;
  if (!token) return { usageError: 'no token: pass --token, or set SWITCHYARD_TOKEN or ADMIN_TOKEN' };
  return {
    options: {
      file: values.file,
      dryRun: values['dry-run'],
      resendSecrets: values['resend-secrets'],
      url,
      token,
    },
  };
}
