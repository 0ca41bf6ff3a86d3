export * from './audience-sync';
