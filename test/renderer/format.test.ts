import { describe, expect, it } from 'vitest';
import { compareNames, comparePaths } from '../../renderer/src/format.js';

describe('the order of names', () => {
  it('counts numbers as numbers and folds case and accents', () => {
    expect(['README 10', 'README 2', 'readme 1', 'Élan', 'eagle'].sort(compareNames)).toEqual(['eagle', 'Élan', 'readme 1', 'README 2', 'README 10']);
  });

  it('keeps each folder right after its parent', () => {
    expect(['Brand 2', 'Brand/Logos 10', 'Brand', 'Brand/Logos 9', 'Brand/Logos 9/Old'].sort(comparePaths)).toEqual([
      'Brand',
      'Brand/Logos 9',
      'Brand/Logos 9/Old',
      'Brand/Logos 10',
      'Brand 2',
    ]);
  });
});
