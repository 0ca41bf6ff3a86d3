/** A record the router writes. `partition` pins it (changelog records sit beside their input's partition). */
export interface OutputRecord {
  topic: string;
  key: string;
  value: Buffer | null;
  partition?: number;
  headers?: Record<string, string>;
}
