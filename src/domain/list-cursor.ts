// Opaque cursors for lists ordered by creation: the last item's (created_at, id), so a page
// boundary never skips or repeats an item, whatever is added meanwhile.
export interface CursorPosition {
  createdAt: string;
  id: string;
}

export function encodeCursor(p: CursorPosition): string {
  return Buffer.from(JSON.stringify([p.createdAt, p.id])).toString('base64url');
}

/** null for anything that is not a cursor this service made. */
export function decodeCursor(raw: string): CursorPosition | null {
  try {
    const v: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    if (!Array.isArray(v) || v.length !== 2) return null;
    const [createdAt, id] = v as unknown[];
    if (typeof createdAt !== 'string' || typeof id !== 'string' || Number.isNaN(Date.parse(createdAt)) || id.length > 64) return null;
    return { createdAt, id };
  } catch {
    return null;
  }
}
