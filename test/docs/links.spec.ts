import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/**
 * The documentation's relative links resolve: each names a file or folder of the repository and,
 * when it has a `#fragment` into a Markdown file, a heading of that file. Links to other sites
 * are not fetched.
 */
const ROOT = join(__dirname, '..', '..');

function markdownUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownUnder(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

const documents = [
  join(ROOT, 'README.md'),
  join(ROOT, 'CHANGELOG.md'),
  join(ROOT, 'bench', 'README.md'),
  join(ROOT, 'deploy', 'kubernetes', 'README.md'),
  ...markdownUnder(join(ROOT, 'docs')),
];

/** Markdown text outside fenced code blocks, where a `[x](y)` is an example, not a link. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '');
}

/** Link targets of `[text](target)`, without an optional title. */
export function linkTargets(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]);
}

/** The fragment GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every fragment a Markdown file answers to; a repeated heading gets `-1`, `-2`, … as on GitHub. */
export function headingSlugs(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const slugs = new Set<string>();
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const slug = headingSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    slugs.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return slugs;
}

function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target);
}

/** Why a relative link does not resolve, or undefined when it does. */
function brokenBecause(document: string, target: string): string | undefined {
  const [pathPart, fragment] = target.split('#', 2);
  const file = pathPart === '' ? document : join(dirname(document), decodeURIComponent(pathPart));
  if (!existsSync(file)) return 'no such file';
  if (fragment === undefined || !file.endsWith('.md')) return undefined;
  return headingSlugs(readFileSync(file, 'utf8')).has(fragment) ? undefined : `no heading #${fragment}`;
}

describe('documentation links', () => {
  it('finds the documents it checks', () => {
    expect(documents.length).toBeGreaterThan(5);
  });

  it.each(documents.map((path) => [relative(ROOT, path), path]))(
    '%s: every relative link resolves',
    (_, path) => {
      const broken = linkTargets(readFileSync(path, 'utf8'))
        .filter((target) => !isExternal(target))
        .map((target) => ({ target, reason: brokenBecause(path, target) }))
        .filter(({ reason }) => reason !== undefined)
        .map(({ target, reason }) => `${target}: ${reason}`);
      expect(broken).toEqual([]);
    },
  );
});

describe('headingSlug', () => {
  it.each([
    ['analytics.js from ingest', 'analyticsjs-from-ingest'],
    ['router and delivery: partitions cap replicas', 'router-and-delivery-partitions-cap-replicas'],
    ['Autoscaling on consumer lag (KEDA)', 'autoscaling-on-consumer-lag-keda'],
    ['`npm start` variables', 'npm-start-variables'],
  ])('gives %s the fragment #%s', (heading, slug) => {
    expect(headingSlug(heading)).toBe(slug);
  });

  it('numbers a repeated heading', () => {
    expect([...headingSlugs('## Errors\n\ntext\n\n## Errors\n')]).toEqual(['errors', 'errors-1']);
  });
});

describe('linkTargets', () => {
  it('reads links outside code blocks only, without their titles', () => {
    const markdown = '[a](docs/a.md "A") and [b](#b)\n\n```md\n[c](c.md)\n```\n';
    expect(linkTargets(markdown)).toEqual(['docs/a.md', '#b']);
  });
});
