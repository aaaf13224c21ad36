/** A text file the page hands to the browser's download (web mode: the desktop saves through main). */
export interface TextFile {
  fileName: string;
  content: string;
  /** MIME type without the charset, e.g. `text/csv`. Default `text/plain`. */
  type?: string;
}

/**
 * Starts the browser's download of `file`. The desktop window must not use this: Electron turns
 * `<a download>` into a navigation its guards refuse, so the desktop saves through `app:saveFile`.
 */
export function downloadInBrowser({ fileName, content, type = 'text/plain' }: TextFile): void {
  const url = URL.createObjectURL(new Blob([content], { type: `${type};charset=utf-8` }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has been handled: revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
