import { FilteredBy } from '@switchyard/contracts';
import { FilterRule } from '@switchyard/config';
import { Counter, metric } from '@switchyard/telemetry';

const filteredCalls = metric(
  'switchyard_router_calls_filtered_total',
  () =>
    new Counter({
      name: 'switchyard_router_calls_filtered_total',
      help: "Calls a destination's filters kept from it, by destination, rule and action (drop, sample)",
      labelNames: ['destination', 'rule', 'action'],
    }),
);

/** One call a rule kept from a destination. */
export function countFiltered(destinationId: string, { rule, action }: FilteredBy): void {
  filteredCalls.inc({ destination: destinationId, rule, action });
}

/** Every rule that can stop a call starts at 0, so increase() sees its first call. */
export function countRulesFrom0(destinationId: string, rules: readonly FilterRule[]): void {
  for (const { name, then } of rules) {
    const action = then.drop ? 'drop' : then.sample !== undefined ? 'sample' : undefined;
    if (action) filteredCalls.inc({ destination: destinationId, rule: name, action }, 0);
  }
}
