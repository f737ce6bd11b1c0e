/**
 * The protocol as one OpenAPI 3.0 document, generated from the zod schemas of shared/api:
 * `npm run openapi` writes it to docs/openapi.json, the local service serves it at
 * `GET /openapi.json`, and the contract tests put Stoplight Prism in front of the service with
 * it. There is one operation per method and path of the reference, plus our extensions, each
 * marked with `x-origin` (and a tag of the same name):
 * - `reference`: the reference shows its request and answer;
 * - `ours`: the reference lists the path, the payload (or part of it) is our design;
 * - `extension`: the reference does not have the path at all.
 */
import { z } from 'zod';
import {
  AccountHistoryEntry,
  AccountSetting,
  Comment,
  CommentRequest,
  HistoryEntry,
  Invite,
  InviteRequest,
  NamedRequest,
  RestoreRequest,
  ReviewHistoryEntry,
  ReviewRequestBody,
  ReviewRequestMessage,
  RolesRequest,
  SettingRequest,
  TagIdsRequest,
  Task,
  TaskRequest,
  VersionPatchRequest,
  WorkspaceSettings,
} from './collab.js';
import { FlatErrorBody, NestedErrorBody, RateLimitBody } from './errors.js';
import * as resources from './resources.js';
import {
  Account,
  AccountMember,
  Asset,
  AssetReview,
  AssetVersion,
  Permissions,
  ReviewRequest,
  Tag,
  Library,
  User,
  Workspace,
  WorkspaceMember,
} from './resources.js';
import * as sync from './sync.js';
import {
  CreateAssetRequest,
  CreateFolderRequest,
  CreateVersionRequest,
  DeleteAssetsRequest,
  DeleteAssetsResult,
  Folder,
  FolderDetail,
  Hierarchy,
  ChangesPage,
  SignedDownload,
  Success,
  TokenRequest,
  TokenResponse,
  UpdateAssetRequest,
  UpdateFolderRequest,
  UploadTicket,
} from './sync.js';

export type Origin = 'reference' | 'ours' | 'extension';
/** Which identity headers an operation needs: none, the token, the account, or account and workspace. */
type Scope = 'none' | 'user' | 'account' | 'workspace';
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type QueryType = 'string' | 'boolean' | 'integer';

interface Answer {
  status: number;
  schema?: z.ZodType;
  /** Another media type than JSON (a zip); a 302 carries a Location instead of a body. */
  media?: string;
  description?: string;
}

export interface OperationSpec {
  method: Method;
  path: string;
  origin: Origin;
  summary: string;
  scope: Scope;
  query?: Record<string, { type: QueryType; required?: boolean; description?: string }>;
  /** A JSON body, or the reference's multipart form (part `file`, part `body`), which the service also takes as plain JSON. */
  body?: { schema: z.ZodType; required?: boolean } | 'multipart';
  answers: Answer[];
  /** Said of `x-workspace-id` when the operation can do without it. */
  workspaceOptional?: string;
}

const A = '/workspaces/assets/{asset_id}';
const list = <T extends z.ZodType>(schema: T) => z.array(schema);
const ok = (schema: z.ZodType, status = 200): Answer => ({ status, schema });
const redirect: Answer = { status: 302, description: 'Location: a signed GET URL on the blob origin' };
const signed: Answer = { status: 200, schema: SignedDownload, description: 'with `redirect=false` [ours]: the signed URL as JSON' };
const json = (schema: z.ZodType, required = true) => ({ schema, required });
const op = (method: Method, path: string, origin: Origin, scope: Scope, summary: string, answers: Answer[], more: Partial<OperationSpec> = {}): OperationSpec => ({
  method,
  path,
  origin,
  scope,
  summary,
  answers,
  ...more,
});

/** `GET /workspaces`: the Workspace, or the getting-started example's `{ workspaces: [...] }`. */
export const WorkspaceAnswer = z.union([Workspace, z.looseObject({ workspaces: z.array(Workspace) })]);
export const ErrorAnswer = z.union([NestedErrorBody, FlatErrorBody, RateLimitBody]);

export const OPERATIONS: readonly OperationSpec[] = [
  op('post', '/auth/token', 'reference', 'none', 'A JWT for the API key and secret', [ok(TokenResponse)], {
    body: json(TokenRequest),
    // The account header is part of the request, the bearer token is not.
  }),

  op('get', '/users', 'reference', 'user', "The caller's own record", [ok(User)]),
  op('patch', '/users', 'reference', 'user', "Update the caller's record", [ok(User)], { body: 'multipart' }),
  op('delete', '/users', 'reference', 'user', "Delete the caller's record", [{ status: 204 }]),
  op('get', '/users/permissions', 'reference', 'user', "The caller's accounts with their workspaces", [ok(Permissions)]),
  op('get', '/users/accounts', 'ours', 'user', "The caller's accounts", [ok(list(Account))]),

  op('get', '/accounts', 'reference', 'account', "The caller's accounts", [ok(list(Account))]),
  op('put', '/accounts', 'reference', 'account', 'Update the account', [ok(Account)], { body: 'multipart' }),
  op('delete', '/accounts', 'ours', 'account', 'Delete the account', [ok(Success)]),
  op('get', '/accounts/download', 'ours', 'account', "The account's thumbnail", [redirect]),
  op('get', '/accounts/members', 'ours', 'account', "The account's members", [ok(list(AccountMember))]),
  op('put', '/accounts/members/{member_id}', 'ours', 'account', "Change a member's roles", [ok(AccountMember)], { body: json(RolesRequest) }),
  op('delete', '/accounts/members/{member_id}', 'ours', 'account', 'Remove a member', [ok(Success)]),
  op('get', '/accounts/workspaces', 'ours', 'account', "The account's workspaces the caller belongs to", [ok(list(Workspace))]),
  op('get', '/accounts/settings', 'ours', 'account', "The account's settings", [ok(list(AccountSetting))]),
  op('put', '/accounts/settings/{setting_id}', 'ours', 'account', 'Change a setting', [ok(AccountSetting)], { body: json(SettingRequest) }),
  op('get', '/accounts/history', 'ours', 'account', "The account's history", [ok(list(AccountHistoryEntry))]),
  op('get', '/accounts/invites', 'ours', 'account', 'Pending invites', [ok(list(Invite))]),
  op('post', '/accounts/invites', 'ours', 'account', 'Invite someone', [ok(Invite, 201)], { body: json(InviteRequest) }),
  op('delete', '/accounts/invites/{invite_id}', 'ours', 'account', 'Withdraw an invite', [ok(Success)]),

  op('get', '/changeRequests', 'reference', 'account', 'Reviews assigned to the caller', [ok(list(AssetReview))]),
  op('get', '/reviewRequests', 'reference', 'account', "The caller's review requests", [ok(list(ReviewRequest))]),

  op('post', '/workspaces', 'ours', 'account', 'Create a workspace', [ok(Workspace, 201)], { body: json(NamedRequest) }),
  op('get', '/workspaces', 'reference', 'workspace', 'The current workspace', [ok(WorkspaceAnswer)], {
    workspaceOptional: "the answer shaped as the getting-started example's `{ workspaces }` lists the caller's workspaces without it",
  }),
  op('put', '/workspaces', 'reference', 'workspace', 'Update the workspace', [ok(Workspace)], { body: 'multipart' }),
  op('delete', '/workspaces', 'reference', 'workspace', 'Delete the workspace', [ok(Success)]),
  op('post', '/workspaces/upload', 'ours', 'workspace', 'A signed URL for one upload (reference shape, our parameter names)', [ok(UploadTicket)], {
    query: {
      file_name: { type: 'string', required: true },
      content_type: { type: 'string', required: true },
      checksum: { type: 'string', required: true, description: "the bytes' digest, in the algorithm and form of the service's checksums" },
      size: { type: 'integer' },
    },
  }),
  op('post', '/workspaces/download/assets', 'ours', 'workspace', 'Every asset of the workspace as a zip', [{ status: 200, media: 'application/zip' }], {
    query: { include_attachments: { type: 'boolean' } },
  }),
  op('get', '/workspaces/members', 'ours', 'workspace', "The workspace's members", [ok(list(WorkspaceMember))]),
  op('post', '/workspaces/members/{user_id}', 'ours', 'workspace', 'Add a member, or change their roles', [ok(WorkspaceMember, 201), ok(WorkspaceMember)], {
    body: json(RolesRequest, false),
  }),
  op('delete', '/workspaces/members/{user_id}', 'ours', 'workspace', 'Remove a member', [ok(Success)]),
  op('post', '/workspaces/folders', 'ours', 'workspace', 'Create a folder', [ok(Folder, 201)], { body: json(CreateFolderRequest) }),
  op('get', '/workspaces/folders/{folder_id}', 'ours', 'workspace', 'A folder with its children', [ok(FolderDetail)]),
  op('put', '/workspaces/folders/{folder_id}', 'ours', 'workspace', 'Rename or move a folder', [ok(Folder)], { body: json(UpdateFolderRequest) }),
  op('delete', '/workspaces/folders/{folder_id}', 'ours', 'workspace', 'Delete a folder', [ok(Success)], { query: { recursive: { type: 'boolean' } } }),
  op('get', '/workspaces/folders/hierarchy', 'ours', 'workspace', 'The sync listing: every folder and asset in one answer, or in pages', [ok(Hierarchy)], {
    query: {
      include_deleted: { type: 'boolean' },
      limit: { type: 'integer', description: 'asks for pages of at most this many assets (extension)' },
      after: { type: 'string', description: "the page token: the last page's `next`" },
    },
  }),
  op('get', '/workspaces/changes', 'extension', 'workspace', 'The changes feed: what changed after a sequence', [ok(ChangesPage)], {
    query: {
      since: { type: 'string', required: true, description: 'a sequence from the listing or a page of this feed, as the service gave it' },
      limit: { type: 'integer' },
    },
  }),
  op('get', '/workspaces/libraries', 'ours', 'workspace', 'Libraries', [ok(list(Library))]),
  op('post', '/workspaces/libraries', 'ours', 'workspace', 'Create a library', [ok(Library, 201)], { body: json(NamedRequest) }),
  op('put', '/workspaces/libraries/{library_id}', 'ours', 'workspace', 'Update a library', [ok(Library)], { body: json(NamedRequest) }),
  op('delete', '/workspaces/libraries/{library_id}', 'ours', 'workspace', 'Delete a library', [ok(Success)]),
  op('get', '/workspaces/tags', 'ours', 'workspace', 'Tags', [ok(list(Tag))]),
  op('post', '/workspaces/tags', 'ours', 'workspace', 'Create a tag', [ok(Tag, 201)], { body: json(NamedRequest) }),
  op('delete', '/workspaces/tags/{tag_id}', 'ours', 'workspace', 'Delete a tag', [ok(Success)]),
  op('post', '/workspaces/tasks', 'ours', 'workspace', 'Create a task', [ok(Task, 201)], { body: json(TaskRequest) }),
  op('get', '/workspaces/tasks/{task_id}', 'ours', 'workspace', 'A task', [ok(Task)]),
  op('put', '/workspaces/tasks/{task_id}', 'ours', 'workspace', 'Update a task', [ok(Task)], { body: json(TaskRequest) }),
  op('delete', '/workspaces/tasks/{task_id}', 'ours', 'workspace', 'Delete a task', [ok(Success)]),
  op('get', '/workspaces/settings', 'ours', 'workspace', "The workspace's settings", [ok(WorkspaceSettings)]),
  op('put', '/workspaces/settings', 'ours', 'workspace', 'Change settings', [ok(WorkspaceSettings)], { body: json(z.record(z.string(), z.unknown())) }),

  op('post', '/workspaces/assets', 'ours', 'workspace', 'Create an asset from an upload, or update one', [ok(Asset, 201), ok(Asset)], {
    body: json(z.union([CreateAssetRequest, UpdateAssetRequest])),
  }),
  op('delete', '/workspaces/assets', 'ours', 'workspace', 'Delete assets, softly unless asked otherwise', [ok(DeleteAssetsResult)], {
    body: json(DeleteAssetsRequest, false),
    query: { permanent: { type: 'boolean' } },
  }),
  op('get', A, 'ours', 'workspace', 'An asset', [ok(Asset)]),
  op('put', A, 'ours', 'workspace', 'Rename, move, lock or edit an asset', [ok(Asset)], { body: json(UpdateAssetRequest) }),
  op('patch', `${A}/restore`, 'ours', 'workspace', 'Restore a soft-deleted asset', [ok(Asset)], { body: json(RestoreRequest, false) }),
  op('get', `${A}/download`, 'ours', 'workspace', 'Download the current version', [redirect, signed], { query: { redirect: { type: 'boolean' } } }),
  op('get', `${A}/versions`, 'ours', 'workspace', 'The versions, newest first', [ok(list(AssetVersion))]),
  op('post', `${A}/versions`, 'ours', 'workspace', 'Commit an upload as the current version', [ok(AssetVersion, 201), ok(AssetVersion)], {
    body: json(CreateVersionRequest),
  }),
  op('get', `${A}/versions/{version_id}`, 'ours', 'workspace', 'A version', [ok(AssetVersion)]),
  op('patch', `${A}/versions/{version_id}`, 'ours', 'workspace', 'Rename or describe a version', [ok(AssetVersion)], { body: json(VersionPatchRequest) }),
  op('delete', `${A}/versions/{version_id}`, 'ours', 'workspace', 'Delete a version', [ok(Success)]),
  op('patch', `${A}/versions/{version_id}/restore`, 'ours', 'workspace', 'Restore a deleted version', [ok(AssetVersion)]),
  op('get', `${A}/versions/{version_id}/download`, 'ours', 'workspace', 'Download a version', [redirect, signed], { query: { redirect: { type: 'boolean' } } }),
  op('get', `${A}/tags`, 'ours', 'workspace', "The asset's tags", [ok(list(Tag))]),
  op('post', `${A}/tags`, 'ours', 'workspace', 'Add tags to the asset', [ok(list(Tag))], { body: json(TagIdsRequest) }),
  op('get', `${A}/tags/{tag_id}`, 'ours', 'workspace', 'One tag of the asset', [ok(Tag)]),
  op('post', `${A}/tags/{tag_id}`, 'ours', 'workspace', 'Add one tag', [ok(Tag)]),
  op('delete', `${A}/tags/{tag_id}`, 'ours', 'workspace', 'Remove one tag', [ok(Success)]),
  op('get', `${A}/tasks`, 'ours', 'workspace', "The asset's tasks", [ok(list(Task))]),
  op('post', `${A}/comments`, 'ours', 'workspace', 'Comment', [ok(Comment, 201)], { body: json(CommentRequest) }),
  op('get', `${A}/comments`, 'ours', 'workspace', 'Comments', [ok(list(Comment))]),
  op('get', `${A}/comments/{comment_id}`, 'ours', 'workspace', 'A comment', [ok(Comment)]),
  op('put', `${A}/comments/{comment_id}`, 'ours', 'workspace', 'Edit a comment', [ok(Comment)], { body: json(CommentRequest) }),
  op('delete', `${A}/comments/{comment_id}`, 'ours', 'workspace', 'Delete a comment', [ok(Success)]),
  op('post', `${A}/reviews`, 'ours', 'workspace', 'Review a version', [ok(AssetReview, 201)], { body: json(ReviewRequestBody) }),
  op('get', `${A}/reviews`, 'ours', 'workspace', 'Reviews', [ok(list(AssetReview))]),
  op('get', `${A}/reviews/{review_id}`, 'ours', 'workspace', 'A review', [ok(AssetReview)]),
  op('put', `${A}/reviews/{review_id}`, 'ours', 'workspace', 'Change a review', [ok(AssetReview)], { body: json(ReviewRequestBody) }),
  op('delete', `${A}/reviews/{review_id}`, 'ours', 'workspace', 'Delete a review', [ok(Success)]),
  op('post', `${A}/reviewRequests/{user_id}`, 'ours', 'workspace', 'Ask a user for a review', [ok(ReviewRequest, 201)], { body: json(ReviewRequestMessage, false) }),
  op('get', `${A}/reviewRequests`, 'ours', 'workspace', 'Review requests of the asset', [ok(list(ReviewRequest))]),
  op('put', `${A}/reviewRequests/{user_id}`, 'ours', 'workspace', 'Change a review request', [ok(ReviewRequest)], { body: json(ReviewRequestMessage, false) }),
  op('delete', `${A}/reviewRequests/{user_id}`, 'ours', 'workspace', 'Withdraw a review request', [ok(Success)]),
  op('get', `${A}/history`, 'ours', 'workspace', "The asset's history", [ok(list(HistoryEntry))]),
  op('get', `${A}/history/review`, 'ours', 'workspace', "The asset's review history", [ok(list(ReviewHistoryEntry))]),

  op('get', '/openapi.json', 'extension', 'none', 'This document', [ok(z.record(z.string(), z.unknown()))]),
];

/** Every named schema, as a component: the reference's records and our payloads. */
function components(): z.core.$ZodRegistry<{ id: string }> {
  const registry = z.registry<{ id: string }>();
  const named: Record<string, unknown> = { ...resources, ...sync, ErrorBody: ErrorAnswer, WorkspaceAnswer };
  for (const [name, schema] of Object.entries(named)) {
    if (schema instanceof z.ZodType && !registry.has(schema)) registry.add(schema, { id: name });
  }
  for (const [name, schema] of Object.entries({ Comment, Task, HistoryEntry, ReviewHistoryEntry, AccountHistoryEntry, AccountSetting, Invite, WorkspaceSettings })) {
    registry.add(schema, { id: name });
  }
  return registry;
}

const REF = (id: string) => `#/components/schemas/${id}`;

/** OpenAPI 3.0 has no `$id`; a ref wrapped in allOf alone is the ref. */
function tidy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(tidy);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).filter(([key]) => key !== '$id' && key !== '$schema');
  const object = Object.fromEntries(entries.map(([key, inner]) => [key, tidy(inner)]));
  const keys = Object.keys(object);
  if (keys.length === 1 && Array.isArray(object.allOf) && object.allOf.length === 1) return object.allOf[0];
  return object;
}

/** The document; `origins` keeps only the operations of those origins (the mock serves the reference's paths). */
export function openApiDocument(options: { origins?: readonly Origin[]; serverUrl?: string } = {}): Record<string, unknown> {
  const registry = components();
  const operations = OPERATIONS.filter((o) => options.origins?.includes(o.origin) ?? true);
  // Each operation's inline schemas are registered too, so they refer to the components by $ref.
  const inline = new Map<z.ZodType, string>();
  const inlineId = (schema: z.ZodType): string => {
    const named = registry.get(schema)?.id;
    if (named !== undefined) return named;
    let id = inline.get(schema);
    if (id === undefined) {
      id = `__inline${inline.size}`;
      inline.set(schema, id);
      registry.add(schema, { id });
    }
    return id;
  };
  for (const o of operations) {
    for (const a of o.answers) if (a.schema) inlineId(a.schema);
    if (o.body && o.body !== 'multipart') inlineId(o.body.schema);
  }
  const converted = z.toJSONSchema(registry, { target: 'openapi-3.0', io: 'input', uri: REF, unrepresentable: 'any' }).schemas;
  const inlineIds = new Set(inline.values());
  const schemaFor = (schema: z.ZodType): unknown => {
    const id = inlineId(schema);
    return inlineIds.has(id) ? tidy(converted[id]) : { $ref: REF(id) };
  };

  const paths: Record<string, Record<string, unknown>> = {};
  for (const o of operations) {
    const parameters: unknown[] = [];
    for (const name of o.path.match(/\{(\w+)\}/g) ?? []) {
      parameters.push({ name: name.slice(1, -1), in: 'path', required: true, schema: { type: 'string' } });
    }
    if (o.scope === 'account' || o.scope === 'workspace' || o.path === '/auth/token') {
      parameters.push({ name: 'x-account-id', in: 'header', required: true, schema: { type: 'string', format: 'uuid' }, description: 'the account the request acts in' });
    }
    if (o.scope === 'workspace') {
      parameters.push({
        name: 'x-workspace-id',
        in: 'header',
        required: o.workspaceOptional === undefined,
        schema: { type: 'string' },
        description: o.workspaceOptional === undefined ? 'the workspace the request acts in' : `the workspace the request acts in; ${o.workspaceOptional}`,
      });
    }
    for (const [name, q] of Object.entries(o.query ?? {})) {
      parameters.push({ name, in: 'query', required: q.required ?? false, schema: { type: q.type }, ...(q.description ? { description: q.description } : {}) });
    }
    const responses: Record<string, unknown> = {};
    for (const a of o.answers) {
      const content = a.schema ? { 'application/json': { schema: schemaFor(a.schema) } } : a.media ? { [a.media]: { schema: { type: 'string', format: 'binary' } } } : undefined;
      responses[String(a.status)] = {
        description: a.description ?? (a.status === 204 ? 'no content' : 'success'),
        ...(a.status === 302 ? { headers: { Location: { schema: { type: 'string' } } } } : {}),
        ...(content ? { content } : {}),
      };
    }
    responses.default = {
      description: 'an error, in either shape of the reference (or the rate-limit body with Retry-After)',
      content: { 'application/json': { schema: { $ref: REF('ErrorBody') } } },
    };
    let requestBody: unknown;
    if (o.body === 'multipart') {
      const form = { type: 'object', properties: { file: { type: 'string', format: 'binary' }, body: { type: 'string' } } };
      requestBody = { required: false, content: { 'multipart/form-data': { schema: form }, 'application/json': { schema: { type: 'object', additionalProperties: {} } } } };
    } else if (o.body) {
      requestBody = { required: o.body.required ?? true, content: { 'application/json': { schema: schemaFor(o.body.schema) } } };
    }
    paths[o.path] ??= {};
    (paths[o.path] as Record<string, unknown>)[o.method] = {
      operationId: operationId(o),
      summary: o.summary,
      tags: [o.origin],
      'x-origin': o.origin,
      ...(o.scope === 'none' ? { security: [] } : {}),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses,
    };
  }

  const schemas = Object.fromEntries(
    Object.entries(converted)
      .filter(([id]) => !inlineIds.has(id))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([id, schema]) => [id, tidy(schema)]),
  );
  return {
    openapi: '3.0.3',
    info: {
      title: 'Asset Collaboration Service API, as Asset Sync speaks it',
      version: '2.41.0',
      description:
        "Generated from shared/api (npm run openapi). Each operation's x-origin says where its shape comes from: the reference (reference), our design for a path the reference lists without a payload (ours), or a path the reference does not have (extension). docs/protocol.md explains each.",
    },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    tags: [
      { name: 'reference', description: 'request and answer as the reference shows them' },
      { name: 'ours', description: 'a path of the reference whose payload (or part of it) we designed' },
      { name: 'extension', description: 'a path the reference does not have' },
    ],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas,
    },
  };
}

/** `get /workspaces/assets/{asset_id}/versions` → `getWorkspacesAssetsByAssetIdVersions`. */
function operationId(o: OperationSpec): string {
  const words = o.path
    .split('/')
    .filter(Boolean)
    .map((part) => (part.startsWith('{') ? `By_${part.slice(1, -1)}` : part))
    .flatMap((part) => part.split(/[_.]/))
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1));
  return `${o.method}${words.join('')}`;
}

/** The document as docs/openapi.json holds it. */
export const openApiText = (): string => `${JSON.stringify(openApiDocument(), null, 2)}\n`;
