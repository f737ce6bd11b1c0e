/**
 * The reference types its fields as strings, numbers and objects and marks only a few nullable:
 * a value the service does not have is left out of the answer, never sent as `null`. Every
 * serializer passes its record through `present` with the fields where `null` is allowed
 * (the reference's nullable fields, and our `parent_id`/`folder_id`, where `null` is the top).
 */
export function present<T extends object>(record: T, nullable: readonly (keyof T)[] = []): { [K in keyof T]: Exclude<T[K], null> } {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record) as Array<[string, unknown]>) {
    if (value === undefined) continue;
    if (value === null && !nullable.includes(key as keyof T)) continue;
    out[key] = value;
  }
  return out as { [K in keyof T]: Exclude<T[K], null> };
}
