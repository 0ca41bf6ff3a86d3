/** A record the router writes. `partition` pins it (changelog records sit beside their input's partition). */
export interface OutputRecord {
  topic: string;
  key: string;
  /**
   * A string where it is made once and written once (delivery jobs): it lives in V8's heap and
   * dies young, where a Buffer of a few KB is malloc'd outside it and freed only after V8
   * collects its handle (4 KB events grew glibc's heap by 100+ MB that way).
   */
  value: Buffer | string | null;
  partition?: number;
  headers?: Record<string, string>;
}
