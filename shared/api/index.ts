export * from './resources.js';
export * from './sync.js';
export * from './collab.js';
export * from './errors.js';
export * from './people.js';
