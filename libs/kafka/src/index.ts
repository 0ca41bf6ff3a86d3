export * from './kafka-client';
export * from './topic-admin';
export * from './json-codec';
export * from './json-text';
export * from './batching-producer';
export * from './compression';
export * from './request-size';
export * from './offset-committer';
