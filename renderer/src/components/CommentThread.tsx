import { useId, useRef, useState } from 'react';
import { ATTACHMENT_MAX_BYTES, type CommentView, type MemberView } from '../../../shared/ipc.js';
import { formatBytes, formatDate } from '../format.js';
import { useServices } from '../store/context.js';
import { useQuery } from '../store/use-query.js';
import { ActionStatus, useAction } from './ActionStatus.js';
import { LoadableView } from './Loadable.js';

/**
 * An asset's comment thread: read it, add to it, mention colleagues (the workspace's members,
 * picked by name) and attach small files.
 */
export function CommentThread({ workspaceId, assetId, assetName }: { workspaceId: string; assetId: string; assetName: string }) {
  const [generation, setGeneration] = useState(0);
  const { result, reload } = useQuery('listComments', { workspaceId, assetId }, String(generation));
  return (
    <section className="comment-thread" aria-label={`Comments on ${assetName}`}>
      <LoadableView value={result} what="the comments" onRetry={reload}>
        {(comments) =>
          comments.length === 0 ? (
            <p className="muted small">No comments yet.</p>
          ) : (
            <ol className="comment-list">
              {comments.map((c) => (
                <CommentItem key={c.id} comment={c} />
              ))}
            </ol>
          )
        }
      </LoadableView>
      <AddComment workspaceId={workspaceId} assetId={assetId} assetName={assetName} onAdded={() => setGeneration((g) => g + 1)} />
    </section>
  );
}

function CommentItem({ comment: c }: { comment: CommentView }) {
  return (
    <li>
      <p className="small">
        <strong>{c.yours ? 'You' : c.author}</strong> <span className="muted">· {formatDate(c.createdAt)}</span>
      </p>
      <p className="comment-text">{c.content}</p>
      {c.mentions.length > 0 && <p className="muted small">Mentions {c.mentions.map((m) => m.name).join(', ')}</p>}
      {c.attachments.length > 0 && (
        <p className="muted small">
          Attached:{' '}
          {c.attachments.map((a, i) => (
            <span key={a.id ?? `${a.name}:${i}`} className="attachment">
              {a.name}
            </span>
          ))}
        </p>
      )}
    </li>
  );
}

interface Picked {
  name: string;
  size: number;
  dataBase64: string;
}

function AddComment({ workspaceId, assetId, assetName, onAdded }: { workspaceId: string; assetId: string; assetName: string; onAdded: () => void }) {
  const { bridge } = useServices();
  const { outcome, run } = useAction();
  const [text, setText] = useState('');
  const [mentions, setMentions] = useState<string[]>([]);
  const [files, setFiles] = useState<Picked[]>([]);
  const [fileError, setFileError] = useState<string | null>(null);
  // Files are read before the comment can go: sent meanwhile, it would go without them.
  const [reading, setReading] = useState(false);
  const textId = useId();
  const filesId = useId();
  const fileErrorId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const members = useQuery('listMembers', { workspaceId });
  const others = members.result.kind === 'ready' ? members.result.value.filter((m) => !m.you) : [];

  const pick = async (list: FileList | null) => {
    const chosen = [...(list ?? [])];
    const total = chosen.reduce((n, f) => n + f.size, 0);
    if (total > ATTACHMENT_MAX_BYTES) {
      setFiles([]);
      setFileError(`Attachments can hold ${formatBytes(ATTACHMENT_MAX_BYTES)} together; these hold ${formatBytes(total)}.`);
      if (fileInput.current) fileInput.current.value = '';
      return;
    }
    setFileError(null);
    setReading(true);
    try {
      setFiles(await Promise.all(chosen.map(async (f) => ({ name: f.name, size: f.size, dataBase64: toBase64(await bytesOf(f)) }))));
    } catch (error) {
      setFiles([]);
      setFileError(error instanceof Error ? error.message : String(error));
    } finally {
      setReading(false);
    }
  };

  const submit = () =>
    void run(async () => {
      await bridge.invoke('addComment', { workspaceId, assetId, content: text, mentions, attachments: files.map(({ name, dataBase64 }) => ({ name, dataBase64 })) });
      setText('');
      setMentions([]);
      setFiles([]);
      if (fileInput.current) fileInput.current.value = '';
      onAdded();
      return 'Comment added.';
    });

  return (
    <form
      className="add-comment"
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim() !== '' && !reading) submit();
      }}
    >
      <label htmlFor={textId}>Add a comment on {assetName}</label>
      <textarea id={textId} rows={2} value={text} maxLength={50_000} onChange={(e) => setText(e.target.value)} />
      {others.length > 0 && (
        <fieldset className="mention-picker">
          <legend>Mention</legend>
          {others.map((m: MemberView) => (
            <label key={m.userId} className="checkbox">
              <input
                type="checkbox"
                checked={mentions.includes(m.userId)}
                onChange={(e) => setMentions((now) => (e.target.checked ? [...now, m.userId] : now.filter((id) => id !== m.userId)))}
              />
              {m.name}
            </label>
          ))}
        </fieldset>
      )}
      <label htmlFor={filesId}>Attach files (up to {formatBytes(ATTACHMENT_MAX_BYTES)})</label>
      <input
        ref={fileInput}
        id={filesId}
        type="file"
        multiple
        aria-invalid={fileError !== null}
        aria-describedby={fileError ? fileErrorId : undefined}
        onChange={(e) => void pick(e.target.files)}
      />
      {fileError && (
        <p id={fileErrorId} className="field-error" role="alert">
          {fileError}
        </p>
      )}
      <div className="actions">
        <button type="submit" disabled={outcome.kind === 'busy' || reading || text.trim() === ''}>
          Comment
        </button>
      </div>
      <ActionStatus outcome={outcome} />
    </form>
  );
}

/** A file's bytes, through FileReader: older engines (and jsdom) have no `Blob.arrayBuffer`. */
function bytesOf(file: File): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error(`${file.name} could not be read`));
    reader.readAsArrayBuffer(file);
  });
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
