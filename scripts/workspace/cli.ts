/**
 * Applies a workspace file through the console's management API (plan first, secrets masked):
 *   npm run workspace -- apply -f config/workspace.example.yaml --dry-run
 *   SWITCHYARD_TOKEN=… npm run workspace -- apply -f workspace.yaml --url https://console.example.com
 */
import { runWorkspaceCommand } from './workspace-command';

runWorkspaceCommand(process.argv.slice(2), process.env, {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
}).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    process.stderr.write(`workspace: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
