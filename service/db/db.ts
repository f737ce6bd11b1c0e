import type Database from 'better-sqlite3';

/**
 * The service's database handle. Its own module so that what fills the database (the reference
 * data) and what opens it can both name it without importing each other.
 */
export type Db = Database.Database;
