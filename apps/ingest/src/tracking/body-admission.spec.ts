import { BodyAdmission } from './body-admission';

describe('BodyAdmission', () => {
  /** Requests `bytes` and records the label when admitted. */
  const ask = (admission: BodyAdmission, admitted: string[], label: string, bytes: number) => admission.request(bytes, () => admitted.push(label));

  it('admits within the budget at once, and the rest in arrival order as bytes come back', () => {
    const admission = new BodyAdmission(100);
    const admitted: string[] = [];
    const releaseA = ask(admission, admitted, 'a', 60);
    const releaseB = ask(admission, admitted, 'b', 60);
    ask(admission, admitted, 'c', 10); // fits, but waits behind b: first come, first served
    expect(admitted).toEqual(['a']);
    releaseA();
    expect(admitted).toEqual(['a', 'b', 'c']);
    releaseB();
  });

  it('admits a request larger than the whole budget when it is alone', () => {
    const admission = new BodyAdmission(100);
    const admitted: string[] = [];
    const releaseSmall = ask(admission, admitted, 'small', 10);
    ask(admission, admitted, 'huge', 500);
    expect(admitted).toEqual(['small']);
    releaseSmall();
    expect(admitted).toEqual(['small', 'huge']);
  });

  it('forgets a request whose client left while it waited, and gives back bytes only once', () => {
    const admission = new BodyAdmission(100);
    const admitted: string[] = [];
    const releaseA = ask(admission, admitted, 'a', 80);
    const withdrawB = ask(admission, admitted, 'b', 80);
    ask(admission, admitted, 'c', 30);
    withdrawB();
    releaseA();
    releaseA();
    expect(admitted).toEqual(['a', 'c']);
    ask(admission, admitted, 'd', 70);
    expect(admitted).toEqual(['a', 'c', 'd']);
    ask(admission, admitted, 'e', 1);
    expect(admitted).toEqual(['a', 'c', 'd']);
  });
});
