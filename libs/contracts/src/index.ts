export * from './topics';
export * from './calls';
export * from './deliveries/delivery-job';
export * from './audiences';
export * from './deletions';
export * from './validation-errors';
