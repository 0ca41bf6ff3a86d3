import { createHash } from 'node:crypto';
import { FilteredBy, WebhookEnvelope } from '@switchyard/contracts';
import {
  AllConditions,
  AnyCondition,
  Destination,
  FieldCondition,
  FilterAction,
  FilterCondition,
  FilterRule,
  NotCondition,
} from '@switchyard/config';
import { countRulesFrom0 } from './filter-metrics';

/** A destination's filters applied to one call: the body to send (the same object when no rule changed it), or the rule that stopped it. */
export type FilterVerdict = { send: WebhookEnvelope } | { filtered: FilteredBy };

/** A destination's rules made into functions, once per configuration. */
export type CompiledFilters = (body: WebhookEnvelope, messageId: string) => FilterVerdict;

type Predicate = (body: WebhookEnvelope) => boolean;
/** One rule's effect on a matching call: a new body, or the reason it stops here. */
type Effect = (body: WebhookEnvelope, messageId: string) => FilterVerdict;

const compiled = new WeakMap<Destination, CompiledFilters>();

/**
 * The destination's filters, compiled on first use. Keyed by the destination object: a workspace
 * change replaces the objects, so rules compile once per change and never per call, and the old
 * ones go with their configuration. Undefined when there are none: the caller does no work.
 */
export function filtersOf(destination: Destination): CompiledFilters | undefined {
  if (!destination.filters?.length) return undefined;
  let filters = compiled.get(destination);
  if (!filters) {
    compiled.set(destination, (filters = compileFilters(destination.filters)));
    countRulesFrom0(destination.id, destination.filters);
  }
  return filters;
}

/** Rules in order; a dropped or unsampled call stops at its rule, a changed body goes on to the next. */
export function compileFilters(rules: readonly FilterRule[]): CompiledFilters {
  const steps = rules.map((rule) => ({
    matches: rule.if ? compileCondition(rule.if) : () => true,
    effect: compileAction(rule.name, rule.then),
  }));
  return (body, messageId) => {
    let current = body;
    for (const { matches, effect } of steps) {
      if (!matches(current)) continue;
      const verdict = effect(current, messageId);
      if ('filtered' in verdict) return verdict;
      current = verdict.send;
    }
    return { send: current };
  };
}

/** A condition as a test of the body. Told apart by their keys, as validation tells them apart. */
export function compileCondition(condition: FilterCondition): Predicate {
  if ('and' in condition) {
    const all = (condition as AllConditions).and.map(compileCondition);
    return (body) => all.every((holds) => holds(body));
  }
  if ('or' in condition) {
    const any = (condition as AnyCondition).or.map(compileCondition);
    return (body) => any.some((holds) => holds(body));
  }
  if ('not' in condition) {
    const inner = compileCondition((condition as NotCondition).not);
    return (body) => !inner(body);
  }
  return fieldTest(condition);
}

function fieldTest(condition: FieldCondition): Predicate {
  const read = fieldReader(condition.field);
  const test = valueTest(condition);
  return (body) => test(read(body));
}

/** Reads a dotted path (`properties.cart.total`) from the body; undefined where any step is missing. */
function fieldReader(path: string): (body: WebhookEnvelope) => unknown {
  const steps = path.split('.');
  return (body) => {
    let value: unknown = body;
    for (const step of steps) {
      if (typeof value !== 'object' || value === null || !Object.hasOwn(value, step)) return undefined;
      value = (value as Record<string, unknown>)[step];
    }
    return value;
  };
}

/** The one operator a valid condition holds, as a test of the field's value. Numeric operators match numbers only. */
function valueTest({ field, equals, in: values, exists, prefix, gt, gte, lt, lte }: FieldCondition) {
  const number = (test: (n: number) => boolean) => (value: unknown) =>
    typeof value === 'number' && test(value);
  if (equals !== undefined) return (value: unknown) => value === equals;
  if (values !== undefined) {
    const set = new Set<unknown>(values);
    return (value: unknown) => set.has(value);
  }
  if (exists !== undefined) return (value: unknown) => (value !== undefined && value !== null) === exists;
  if (prefix !== undefined) return (value: unknown) => typeof value === 'string' && value.startsWith(prefix);
  if (gt !== undefined) return number((n) => n > gt);
  if (gte !== undefined) return number((n) => n >= gte);
  if (lt !== undefined) return number((n) => n < lt);
  if (lte !== undefined) return number((n) => n <= lte);
  throw new Error(`condition on ${field} has no operator`);
}

function compileAction(rule: string, action: FilterAction): Effect {
  if (action.drop) return () => ({ filtered: { rule, action: 'drop' } });
  if (action.sample !== undefined) {
    const share = action.sample / 100;
    return (body, messageId) =>
      sampleShare(messageId, rule) < share ? { send: body } : { filtered: { rule, action: 'sample' } };
  }
  if (action.allowProperties) return reshape('properties', keepOnly(action.allowProperties));
  if (action.allowTraits) return reshape('traits', keepOnly(action.allowTraits));
  if (action.removeProperties) return reshape('properties', removeAll(action.removeProperties));
  if (action.removeTraits) return reshape('traits', removeAll(action.removeTraits));
  throw new Error(`rule ${rule} has no action`);
}

/**
 * Where a message falls in [0, 1) for a rule's sample: a hash of its id and the rule's name, so
 * a replayed message is decided as before, and two rules sample independently of each other.
 */
export function sampleShare(messageId: string, rule: string): number {
  const digest = createHash('sha256').update(`${rule}\u0000${messageId}`).digest();
  return digest.readUIntBE(0, 6) / 2 ** 48;
}

type Reshape = (fields: Record<string, unknown>) => Record<string, unknown>;

/** Applies `change` to one object field of the body, copying the body: the original stays shared by other destinations. */
function reshape(key: 'properties' | 'traits', change: Reshape): Effect {
  return (body) => {
    const fields = body[key];
    if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return { send: body };
    return { send: { ...body, [key]: change(fields as Record<string, unknown>) } };
  };
}

function keepOnly(names: readonly string[]): Reshape {
  const kept = new Set(names);
  return (fields) => Object.fromEntries(Object.entries(fields).filter(([n]) => kept.has(n)));
}

function removeAll(names: readonly string[]): Reshape {
  const removed = new Set(names);
  return (fields) => Object.fromEntries(Object.entries(fields).filter(([n]) => !removed.has(n)));
}
