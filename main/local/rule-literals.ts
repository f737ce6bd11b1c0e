/**
 * What text a gitignore rule needs to find in a path before it can match it: its longest run of
 * plain characters. A path holding no rule's run matches no rule, so the matcher answers it
 * without running the rules (ignore.ts). The test must never say "no" where a rule matches:
 * where a rule's run cannot be told for sure (escapes, character classes, letters that are not
 * ASCII, whose case folding differs), the rule needs nothing and every path is matched in full.
 */

/** Lower-case runs the rules need; '' for a rule that may match any path. Comments and blank lines need none. */
export function ruleLiterals(rules: readonly string[]): string[] {
  const out: string[] = [];
  for (const line of rules) {
    const literal = literalOf(line);
    if (literal !== null) out.push(literal);
  }
  return out;
}

function literalOf(line: string): string | null {
  let body = line.replace(/\s+$/u, '');
  if (body === '' || body.startsWith('#')) return null;
  // Escapes and classes: matched in full. Letters outside ASCII fold differently from toLowerCase.
  if (/[\\[\]]|[^\x20-\x7e]/u.test(body)) return '';
  if (body.startsWith('!')) body = body.slice(1);
  // A leading "**/" may match no folder at all: the slash after it need not be in the path.
  while (body.startsWith('**/')) body = body.slice(3);
  body = body.replace(/^\/+|\/+$/gu, '');
  let longest = '';
  for (const run of body.split(/[*?]/u)) if (run.length > longest.length) longest = run;
  return longest.toLowerCase();
}

/** Whether `lowerPath` holds any of `literals`: only then can a rule match it. */
export function mayMatch(lowerPath: string, literals: readonly string[]): boolean {
  for (const literal of literals) if (lowerPath.includes(literal)) return true;
  return false;
}

/**
 * A test equal to `mayMatch(text.toLowerCase(), literals)` for text in printable ASCII, where
 * ignoring case in a regular expression folds exactly what toLowerCase folds (the literals are
 * ASCII too): one pass of a compiled pattern where the loop made a lower-case copy and searched
 * it once per literal, five times slower.
 */
export function asciiLiteralTest(literals: readonly string[]): RegExp {
  if (literals.length === 0) return /(?!)/u;
  return new RegExp(literals.map((l) => l.replace(/[.*+?^${}()|[\]\\/]/gu, '\\$&')).join('|'), 'i');
}
