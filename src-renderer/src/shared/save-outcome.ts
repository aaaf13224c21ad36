import type { IpcError } from '../../../src-shared/contract';
import type { TextFile } from './browser-download';

/** What became of a file the page asked to save (`saveTextFile`). */
export type SaveOutcome =
  /** Desktop: written where the user chose in the save dialog. */
  | { status: 'saved'; path: string }
  /** Web mode: handed to the browser's download (where it lands is the browser's choice). */
  | { status: 'downloaded'; fileName: string }
  | { status: 'cancelled' }
  | { status: 'failed'; error: IpcError };

/**
 * The page's one way to save a file it made: the app store's `saveTextFile` (`features/app`),
 * handed to shared components that save (the table's CSV export), which do not import features.
 */
export type SaveTextFile = (file: TextFile) => Promise<SaveOutcome>;
