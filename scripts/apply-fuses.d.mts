// Types for scripts/apply-fuses.mjs (electron-builder's afterPack hook, a plain Node script).
import type { FuseV1Config, flipFuses } from '@electron/fuses';

export const FUSES: FuseV1Config & { strictlyRequireAllFuses: true };
export function applyFuses(
  executable: string,
  options?: { flip?: typeof flipFuses; resetAdHocDarwinSignature?: boolean },
): Promise<number>;
export interface AfterPackContext {
  appOutDir: string;
  electronPlatformName: string;
  packager: { appInfo: { productFilename: string }; executableName?: string };
}
export function packagedExecutable(context: AfterPackContext): string;
export default function afterPack(context: AfterPackContext): Promise<void>;
