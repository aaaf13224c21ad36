/** `app:saveFile` takes a name of these characters only (`src-shared/contract/app.ts`). */
const ALLOWED = /[^\p{L}\p{N} _.,()+-]/gu;
/** The contract's `FILE_NAME_MAX` (renderer code may import only types from main). */
const FILE_NAME_MAX = 200;

/**
 * A file name the save rule accepts, made from ids the service chose (a subscription id may hold
 * any character): other characters become `_`, no leading dot, at most 200 characters with the
 * extension kept.
 */
export function safeFileName(name: string): string {
  let safe = name.replace(ALLOWED, '_').replace(/^\.+/, '');
  if (safe.length > FILE_NAME_MAX) {
    const dot = safe.lastIndexOf('.');
    const extension = dot > 0 && safe.length - dot <= 10 ? safe.slice(dot) : '';
    safe = safe.slice(0, FILE_NAME_MAX - extension.length) + extension;
  }
  return safe === '' ? 'export.txt' : safe;
}
