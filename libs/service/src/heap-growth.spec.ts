import { governHeapGrowth, HeapGrowthGovernor, RESTING_GAP_MS, UNDER_LOAD_GAP_MS } from './heap-growth';

describe('HeapGrowthGovernor', () => {
  const growth = { restingPercent: 30, underLoadPercent: 200 };

  function governor() {
    const applied: number[] = [];
    return { applied, governor: new HeapGrowthGovernor(growth, (percent) => applied.push(percent)) };
  }

  it('starts at rest', () => {
    const { applied, governor: g } = governor();
    expect(applied).toEqual([30]);
    expect(g.currentPercent).toBe(30);
  });

  it('grows the heap when full collections come close together, and only then', () => {
    const { applied, governor: g } = governor();
    g.onFullCollection(0);
    g.onFullCollection(UNDER_LOAD_GAP_MS); // just far enough apart: still at rest
    expect(applied).toEqual([30]);
    g.onFullCollection(UNDER_LOAD_GAP_MS * 2 - 1);
    expect(applied).toEqual([30, 200]);
    expect(g.currentPercent).toBe(200);
  });

  it('measures the first gap from the first full collection it is told of', () => {
    const { applied, governor: g } = governor();
    g.onFullCollection(5);
    expect(applied).toEqual([30]);
  });

  it('keeps the room while full collections come at a moderate pace, and gives it back once they are far apart', () => {
    const { applied, governor: g } = governor();
    g.onFullCollection(0);
    g.onFullCollection(100);
    g.onFullCollection(100 + RESTING_GAP_MS); // moderate under the larger growth: kept
    g.onFullCollection(100 + 2 * RESTING_GAP_MS);
    expect(applied).toEqual([30, 200]);
    g.onFullCollection(101 + 3 * RESTING_GAP_MS);
    expect(applied).toEqual([30, 200, 30]);
    g.onFullCollection(102 + 3 * RESTING_GAP_MS + UNDER_LOAD_GAP_MS); // moderate at rest: kept
    expect(g.currentPercent).toBe(30);
  });
});

describe('governHeapGrowth', () => {
  it("leaves the growth to the operator's --heap-growing-percent", () => {
    expect(
      governHeapGrowth({ restingPercent: 30, underLoadPercent: 200 }, ['--heap-growing-percent=50']),
    ).toBeUndefined();
  });
});
