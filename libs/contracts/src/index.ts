export * from './topics';
export * from './calls';
export * from './deliveries/delivery-job';
