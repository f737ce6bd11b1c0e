/**
 * Answers varied within what the reference allows, so clients are tested against more than one
 * reading of it (service switches beside --token-shape, --error-shape and --workspaces-shape):
 * - `absentFields: 'empty'`: an optional string field the service has no value for is sent as
 *   `""` instead of being left out (the reference marks none of them nullable, and does not say
 *   which of the two a real deployment does);
 * - `sequenceType: 'string'`: the sequences the reference types as a string (a workspace's) and
 *   those of our sync payloads are sent as digit strings;
 * - `extraFields: 'some'`: every record carries a field no client knows;
 * - `arrayOrder: 'reversed'`: every list comes in the opposite order (the reference promises no
 *   order; each feed page still holds every item once).
 * Only successful JSON answers vary; error bodies keep their shapes.
 */
export interface AnswerVariants {
  absentFields: 'omitted' | 'empty';
  sequenceType: 'number' | 'string';
  extraFields: 'none' | 'some';
  arrayOrder: 'natural' | 'reversed';
}

export const ANSWER_VARIANTS = {
  absentFields: ['omitted', 'empty'],
  sequenceType: ['number', 'string'],
  extraFields: ['none', 'some'],
  arrayOrder: ['natural', 'reversed'],
} as const satisfies { [K in keyof AnswerVariants]: ReadonlyArray<AnswerVariants[K]> };

export const DEFAULT_VARIANTS: AnswerVariants = { absentFields: 'omitted', sequenceType: 'number', extraFields: 'none', arrayOrder: 'natural' };

/**
 * Optional string fields of the reference's records that are not uuids, by a field only that
 * record carries: what `absentFields: 'empty'` fills with `""` where it is missing.
 */
const EMPTY_WHEN_ABSENT: ReadonlyArray<{ carries: string; fields: readonly string[] }> = [
  { carries: 'current_version_id', fields: ['locked_by_user_id', 'status_id'] },
  { carries: 'version_number', fields: ['commit_parent_id'] },
  { carries: 'requestor_id', fields: ['review_id'] },
  { carries: 'emailVerified', fields: ['avatar_file_id', 'industry', 'occupation', 'company', 'city', 'state', 'country', 'zipCode'] },
];

/** Paths whose whole answer is ours, where every `sequence` may be a string. */
const OURS = /^\/workspaces\/(folders(\/|$)|changes$)/;
const EXTRA = { x_vendor_note: { unknown: 'to every client', n: 1, items: ['a', 2, true] } };

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const numeric = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

export const variesAnswers = (v: AnswerVariants): boolean =>
  v.absentFields !== 'omitted' || v.sequenceType !== 'number' || v.extraFields !== 'none' || v.arrayOrder !== 'natural';

/** The answer `payload` to `path` as the variants send it. */
export function varyAnswer(payload: unknown, path: string, v: AnswerVariants): unknown {
  const allStrings = v.sequenceType === 'string' && OURS.test(path);
  // A workspace's sequence: the answer of GET /workspaces, and items of any `workspaces` list.
  const workspaceRoot = v.sequenceType === 'string' && (path === '/workspaces' || path === '/accounts/workspaces');
  const walk = (value: unknown, workspace: boolean): unknown => {
    if (Array.isArray(value)) {
      const items = value.map((item) => walk(item, workspace));
      return v.arrayOrder === 'reversed' ? items.reverse() : items;
    }
    if (!isRecord(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) {
      out[key] = walk(field, v.sequenceType === 'string' && key === 'workspaces');
      if (key === 'sequence' && numeric(field) && (allStrings || workspace)) out[key] = String(field);
    }
    if (v.absentFields === 'empty') {
      for (const { carries, fields } of EMPTY_WHEN_ABSENT) {
        if (!(carries in value)) continue;
        for (const field of fields) if (!(field in out)) out[field] = '';
      }
    }
    if (v.extraFields === 'some') Object.assign(out, EXTRA);
    return out;
  };
  return walk(payload, workspaceRoot);
}
