import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A message and the fields an implementation of the Tracking API's rules must refuse it for. */
export interface TrackingRuleCase {
  name: string;
  message: Record<string, unknown> & { type: string };
  refused: string[];
}

/** The shared cases (the Go client's tests read the same file). */
export function trackingRuleCases(): TrackingRuleCase[] {
  const file = join(__dirname, '..', 'src', 'calls', 'tracking-rules.cases.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { cases: TrackingRuleCase[] }).cases;
}
