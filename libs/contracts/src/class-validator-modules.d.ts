// class-validator ships types for its index only. Each of its modules that
// libs/contracts/src/class-validator.ts imports exports what the index exports under that name.
declare module 'class-validator/cjs/*' {
  export * from 'class-validator';
}
