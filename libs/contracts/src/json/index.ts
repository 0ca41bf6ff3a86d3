export * from './json-text';
export * from './json-codec';
