import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrowserContext, chromium, errors } from 'playwright-core';

/** The machine's Chromium (Debian's `chromium` package); tests find it, never install it. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** How long one start of Chromium may take; a loaded CI machine has taken minutes, once past 3. */
const LAUNCH_TIMEOUT_MS = 120_000;
const LAUNCH_ATTEMPTS = 2;

/**
 * Headless Chromium with a fresh profile, and nothing of its own on the network (no updates,
 * sync or QUIC probes), so every request a test sees comes from the page. Closing it removes the
 * profile.
 */
export async function launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  for (let attempt = 1; ; attempt++) {
    const profile = mkdtempSync(join(tmpdir(), 'switchyard-chromium-'));
    try {
      const context = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM_PATH,
        headless: true,
        timeout: LAUNCH_TIMEOUT_MS,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
      return {
        context,
        close: async () => {
          await context.close();
          rmSync(profile, { recursive: true, force: true });
        },
      };
    } catch (error) {
      rmSync(profile, { recursive: true, force: true });
      // A start that hangs (seen once under stress-ng) is retried once with a fresh profile; a
      // missing or broken binary fails at once the same way each time.
      if (attempt >= LAUNCH_ATTEMPTS || !(error instanceof errors.TimeoutError)) throw error;
    }
  }
}
