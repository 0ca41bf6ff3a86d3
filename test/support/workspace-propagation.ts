import { eventually } from './kafka-test-kit';
import { scrape } from './prometheus-text';

/** The workspace version a service reports live (`switchyard_workspace_config_info`), if it reports one. */
export async function liveWorkspaceVersion(baseUrl: string): Promise<string | undefined> {
  const samples = await scrape(baseUrl);
  return samples.find((s) => s.name === 'switchyard_workspace_config_info' && s.value === 1)?.labels.version;
}

/**
 * Resolves once every follower applies the workspace version the console has applied: after a
 * change made in the console, the moment the pipeline works by it. In topic mode a version is
 * the workspace topic's position, the same on every service that applied the same records.
 */
export async function awaitWorkspaceApplied(
  consoleUrl: string,
  followerUrls: string[],
  timeoutMs = 90_000,
): Promise<string> {
  const version = await liveWorkspaceVersion(consoleUrl);
  if (version === undefined) throw new Error(`${consoleUrl} reports no live workspace version`);
  await eventually(
    async () => (await Promise.all(followerUrls.map(liveWorkspaceVersion))).every((v) => v === version),
    timeoutMs,
    `every service to apply workspace ${version}`,
  );
  return version;
}
