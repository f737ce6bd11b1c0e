/**
 * The symlink check before each write, at the cost of one stat for a folder already checked in
 * this run. Rule: a folder is known once the folder itself was opened and the kernel said where
 * that open folder physically is (`/proc/self/fd`), inside the resolved root; what is kept is its
 * identity (device and inode). Every later check of a path in it stats the folder by name and
 * requires the same identity. A folder (or any folder above it) swapped for a symlink since
 * resolves to another directory, with another identity: the entry is dropped and the folder
 * checked in full again, which refuses a way out of the root.
 *
 * Why this is safe: the identity kept is of the very directory whose place was read, in one
 * step (nothing can be swapped between the open and the readlink of its descriptor), so no
 * race can make an outside folder known. The only directory that passes the stat later is that
 * one; it could leave the root only by being moved out whole, which takes write access where
 * it goes (and no check made before a write by path can stop a move a moment after it).
 * Where `/proc` is missing (macOS, Windows) a folder is resolved with realpath instead, as the
 * full check does.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, realpathSync, statSync, type BigIntStats } from 'node:fs';
import path from 'node:path';
import { PathEscapeError, checkNoSymlinkEscape, isInside } from './paths.js';

interface Identity {
  dev: bigint;
  ino: bigint;
}

// Stryker disable next-line all: without it every folder is checked in full (learn says false), which refuses the same paths more slowly
const FD_PATHS = process.platform === 'linux' ? '/proc/self/fd' : undefined;

export class WritableFolders {
  private readonly base: string;
  private readonly realRoot: string;
  private readonly known = new Map<string, Identity>();

  constructor(root: string) {
    this.base = path.resolve(root);
    this.realRoot = realpathSync.native(root);
  }

  /**
   * Throws PathEscapeError unless `absPath` may be written: inside the root, not a symlink, and
   * its folder (or, when that is missing, its nearest existing ancestor) inside the resolved root.
   * `ownToo: false` skips the look at `absPath` itself, for a file just created without
   * following a symlink.
   */
  check(absPath: string, ownToo = true): void {
    const target = path.resolve(absPath);
    if (!isInside(this.base, target)) throw new PathEscapeError('path is outside the root', absPath);
    const dir = path.dirname(target);
    // Stryker disable next-line ConditionalExpression,LogicalOperator: whether a folder is checked in full or by its kept identity is a matter of speed; both refuse the same paths
    if (dir !== this.base && !this.stillKnown(dir) && !this.learn(dir)) {
      checkNoSymlinkEscape(this.base, target, this.realRoot);
      return;
    }
    // The scanner never reports symlinks, so the engine has no business writing through one.
    if (ownToo && lstatSync(target, { throwIfNoEntry: false })?.isSymbolicLink()) throw new PathEscapeError('path is a symbolic link', absPath);
  }

  // Stryker disable BlockStatement,ConditionalExpression,ObjectLiteral,BooleanLiteral: a folder not vouched for here is checked in full, so how the kept identity is looked up is a matter of speed; the comparison below is what refuses a swap
  private stillKnown(dir: string): boolean {
    const known = this.known.get(dir);
    if (known === undefined) return false;
    const now = statSync(dir, { bigint: true, throwIfNoEntry: false });
    // Stryker restore all
    // Stryker disable next-line BooleanLiteral: a folder not vouched for is learned again or checked in full, which refuses the same paths
    if (now !== undefined && now.isDirectory() && now.dev === known.dev && now.ino === known.ino) return true;
    this.known.delete(dir);
    return false;
  }

  /**
   * Opens `dir` and keeps its identity if it is physically inside the root; false when it cannot
   * be told this way (missing, not a folder, a symlink itself, no `/proc`) or it is outside: the
   * full check decides, and refuses what leads out.
   */
  // Stryker disable next-line BlockStatement: a folder not learned is checked in full, which refuses the same paths
  private learn(dir: string): boolean {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a folder not learned is checked in full, which refuses the same paths
    if (FD_PATHS === undefined) return false;
    let fd: number;
    try {
      // Only on Linux (FD_PATHS), which has both flags.
      fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
    } catch {
      return false;
    }
    // Stryker disable next-line BlockStatement: a folder not learned is checked in full, which refuses the same paths
    try {
      // Stryker disable next-line StringLiteral: a folder not learned is checked in full, which refuses the same paths
      const where = readlinkSync(`${FD_PATHS}/${fd}`);
      // Outside the root: the full check refuses it, and says why.
      if (!isInside(this.realRoot, where)) return false;
      // Stryker disable next-line ObjectLiteral,BooleanLiteral: an identity kept wrong never matches the folder again, so it is checked in full
      const stats: BigIntStats = fstatSync(fd, { bigint: true });
      // Stryker disable next-line ObjectLiteral: an identity kept wrong never matches the folder again, so it is checked in full
      this.known.set(dir, { dev: stats.dev, ino: stats.ino });
      // Stryker disable next-line BooleanLiteral: a folder not learned is checked in full, which refuses the same paths
      return true;
    } catch {
      return false;
    } finally {
      closeSync(fd);
    }
  }
}

