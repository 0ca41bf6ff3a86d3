import { trackingRuleCases } from '../../test-support/tracking-rule-cases';
import { validateCall } from './call-validation';

describe('the Tracking API rules against the shared cases (ingest)', () => {
  it.each(trackingRuleCases().map((c) => [c.name, c] as const))('%s', (_, { message, refused }) => {
    const fields = validateCall(message).map((problem) => problem.field);
    expect(fields.sort()).toEqual([...refused].sort());
  });
});
