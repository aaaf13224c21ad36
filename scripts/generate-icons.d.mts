// Types for scripts/generate-icons.mjs (`npm run icons`).
export const RESOURCES_DIR: string;
export const APP_PNG_SIZES: number[];
export const APP_ICO_SIZES: number[];
export const ICNS_CHUNKS: [type: string, size: number][];
export const SMALL_DRAWING_BELOW: number;
export const TRAY_ICO_SIZES: number[];
export const TRAY_LINUX_SIZES: number[];
export const BADGE_COLOUR: string;
export interface IconSources {
  icon: string;
  small: string;
  tray: string;
}
export function renderPng(svg: string, size: number): Buffer;
export function withBadge(svg: string, colour: string, corner?: 'top-right' | 'top-left'): string;
export function icnsFile(chunks: [type: string, png: Buffer][]): Buffer;
export function icoFile(pngs: Buffer[]): Promise<Buffer>;
export function buildIcons(sources: IconSources): Promise<Map<string, Buffer>>;
export function readSources(dir?: string): IconSources;
export function generateIcons(dir?: string): Promise<string[]>;
