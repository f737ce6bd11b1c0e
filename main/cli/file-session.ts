/**
 * A session for a command about one synced file (`restore`, `resolve`): it opens the file's sync
 * root and syncs only the workspace the file is in, as that workspace is set up here.
 */
import { basename } from 'node:path';
import { openSession, type Session } from '../bootstrap.js';
import type { WorkspaceFile } from './local-file.js';
import type { GlobalOptions, ServiceOptions } from './options.js';
import { serviceFor } from './versions.js';

export function openFileSession(file: WorkspaceFile, options: ServiceOptions, globals: GlobalOptions): Promise<Session> {
  return openSession({
    ...serviceFor(file, options),
    root: file.root,
    workspaces: [{ id: file.workspace.id, folder: basename(file.workspace.localPath), excluded: file.workspace.excludedPaths }],
    logToStderr: globals.verbose,
  });
}
