export * from './audience-sync';
export * from './membership-changelog';
