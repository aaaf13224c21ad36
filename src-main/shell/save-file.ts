import { type BrowserWindow, dialog } from 'electron';
import { writeFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';

/** The part of Electron's `dialog.showSaveDialog` used here (tests inject a fake). */
type SaveDialog = (options: {
  title: string;
  defaultPath: string;
  filters: { name: string; extensions: string[] }[];
}) => Promise<{ canceled: boolean; filePath?: string | undefined }>;

export interface FileSaverOptions {
  /** The folder the dialog opens in (the user's Downloads). */
  defaultDir: () => string;
  /** Default: Electron's save dialog, attached to the window when there is one. */
  showSaveDialog?: SaveDialog;
  window?: () => BrowserWindow | null;
  writeFile?: (path: string, content: string) => Promise<void>;
}

/**
 * `app:saveFile` on the desktop: the window cannot download (Electron turns `<a download>` into a
 * navigation, which the window's guards refuse), so main asks where to save with the OS dialog and
 * writes the file. The user picks the path; the page only names the file (the contract refuses a
 * path). Resolves with the path written, or null when the user cancelled.
 */
export function createFileSaver(
  options: FileSaverOptions,
): (fileName: string, content: string) => Promise<string | null> {
  const show: SaveDialog =
    options.showSaveDialog ??
    ((dialogOptions) => {
      const window = options.window?.() ?? null;
      return window && !window.isDestroyed()
        ? dialog.showSaveDialog(window, dialogOptions)
        : dialog.showSaveDialog(dialogOptions);
    });
  const write = options.writeFile ?? ((path, content) => writeFile(path, content, 'utf8'));
  return async (fileName, content) => {
    // The contract allows only a name; `basename` again so that no caller can point outside the folder.
    const name = basename(fileName);
    const extension = extname(name).slice(1).toLowerCase();
    const result = await show({
      title: 'Save as',
      defaultPath: join(options.defaultDir(), name),
      filters: extension
        ? [
            { name: `${extension.toUpperCase()} file`, extensions: [extension] },
            { name: 'All files', extensions: ['*'] },
          ]
        : [{ name: 'All files', extensions: ['*'] }],
    });
    if (result.canceled || !result.filePath) return null;
    await write(result.filePath, content);
    return result.filePath;
  };
}
