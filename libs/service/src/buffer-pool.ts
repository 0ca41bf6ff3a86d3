/** The slab small Buffers are cut from, as Node had it before version 24 raised it to 64 KB. */
export const BUFFER_POOL_BYTES = 8 * 1024;

/**
 * Node cuts each small Buffer (`Buffer.from` of a string, `allocUnsafe` under half the pool) from
 * a shared slab, which lives until it is full and then until its last slice dies. A service at a
 * few hundred events/s fills a 64 KB slab slowly enough that the slab outlives two young-generation
 * collections: V8 promotes it, and its memory, in glibc's heap outside V8's, waits for the next
 * full collection, tens of seconds away. Almost every slab went that way. An 8 KB slab fills, and
 * dies, within the young generation. The size is process-wide: the all-in-one process sets it
 * once per service, to the same value.
 */
export function useSmallBufferPool(): void {
  Buffer.poolSize = BUFFER_POOL_BYTES;
}
