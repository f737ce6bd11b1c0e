/** A folder or a document, drawn inline (no icon font); the row's words say which. */
export function EntryIcon({ folder, size = 18 }: { folder: boolean; size?: number }) {
  return (
    <svg className="entry-icon" width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      {folder ? (
        <path d="M3 6.5A1.5 1.5 0 0 1 4.5 5h4.6l2 2h8.4A1.5 1.5 0 0 1 21 8.5v9a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 17.5z" className="folder-shape" />
      ) : (
        <path d="M6 3.5h8l4 4v13H6zM14 3.5v4h4" className="file-shape" />
      )}
    </svg>
  );
}
