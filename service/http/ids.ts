import { randomBytes, randomUUID } from 'node:crypto';

export const newId = (): string => randomUUID();
export const now = (): string => new Date().toISOString();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);
/** The key under which names are unique in a folder: NFC, case-folded. */
export const nameKey = (name: string): string => name.normalize('NFC').toLowerCase();
/** Blob keys are ours, never a client's file name, so they are safe as file names on the blob store. */
export const newBlobKey = (): string => `up_${randomBytes(16).toString('hex')}`;
