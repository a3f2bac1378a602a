export * from './client';
export * from './codes';
export * from './constants';
export * from './endpoint';
export * from './endpoints/index';
export * as fields from './fields';
export * from './permissions';
export * from './rules';
