import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { checkWorkspace } from '@switchyard/config';
import type { DesiredWorkspace } from './plan';

type Plain = Record<string, unknown>;

/** The file's content as the plan needs it, or every problem that keeps it from being applied. */
export type WorkspaceFileCheck = { workspace: DesiredWorkspace; problems: [] } | { problems: string[] };

/** Reads a workspace file (JSON by its extension, YAML otherwise) and checks it. */
export async function readWorkspaceFile(path: string): Promise<WorkspaceFileCheck> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    return { problems: [`cannot read ${path}: ${(error as Error).message}`] };
  }
  const json = extname(path) === '.json';
  try {
    return checkWorkspaceFile(json ? JSON.parse(text) : parseYaml(text));
  } catch (error) {
    return { problems: [`${path} is not valid ${json ? 'JSON' : 'YAML'}: ${(error as Error).message}`] };
  }
}

/**
 * Checks a file's content with the validator the console uses. A source may leave `writeKey`
 * out here (the console generates one, or keeps the stored one), so each missing key is checked
 * as a distinct stand-in the validator accepts; the plan gets the content without it.
 */
export function checkWorkspaceFile(plain: unknown): WorkspaceFileCheck {
  const withKeys =
    isPlain(plain) && Array.isArray(plain.sources)
      ? { ...plain, sources: plain.sources.map(standIn) }
      : plain;
  const check = checkWorkspace(withKeys);
  if (!check.value) return { problems: check.problems };
  const file = plain as { sources: Plain[]; destinations: Plain[] };
  return { workspace: { sources: file.sources, destinations: file.destinations }, problems: [] };
}

function standIn(source: unknown, index: number): unknown {
  return isPlain(source) && source.writeKey === undefined
    ? { ...source, writeKey: `generated-by-the-console-${index}` }
    : source;
}

const isPlain = (value: unknown): value is Plain =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
