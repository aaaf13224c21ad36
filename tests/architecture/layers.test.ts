import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The layers of docs/architecture.md, read from the code itself: every relative import of every
// source file, resolved to a file. Imports only point down; the renderer takes only types, and only
// from the shared leaf; no two folders import each other, however indirectly.

const ROOT = resolve(__dirname, '..', '..');
const SOURCE_ROOTS = ['src-shared', 'src-main', 'src-renderer/src'];

type Layer = 'shared' | 'lib' | 'api' | 'core' | 'dispatch' | 'surface' | 'renderer';

/** What each layer may import besides itself. */
const MAY_IMPORT: Record<Layer, Layer[]> = {
  shared: [],
  lib: [],
  api: ['shared', 'lib'],
  // Demo mode reaches the sandbox through its package entry (`@proxy-manager/sandbox`), not a path.
  core: ['api', 'shared', 'lib'],
  dispatch: ['core', 'api', 'shared', 'lib'],
  surface: ['dispatch', 'core', 'api', 'shared', 'lib'],
  renderer: ['shared'],
};

function layerOf(file: string): Layer {
  const path = relative(ROOT, file);
  if (path.startsWith('src-shared/')) return 'shared';
  if (path.startsWith('src-renderer/')) return 'renderer';
  const folder = path.split('/')[1] ?? '';
  switch (folder) {
    case 'lib':
    case 'api':
    case 'core':
    case 'dispatch':
      return folder;
    case 'shell':
    case 'web':
    case 'cli':
    case 'control':
    case 'mcp':
    case 'rest':
      return 'surface';
    default:
      throw new Error(`${path} is in no layer: add its folder to tests/architecture/layers.test.ts`);
  }
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

function resolveImport(from: string, specifier: string): string | null {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not this one
    }
  }
  return null;
}

interface ImportEdge {
  from: string;
  to: string;
  typeOnly: boolean;
}

function importsOf(file: string): ImportEdge[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const edges: ImportEdge[] = [];
  const add = (specifier: ts.Expression | undefined, typeOnly: boolean) => {
    if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) return;
    const to = resolveImport(file, specifier.text);
    if (to) edges.push({ from: file, to, typeOnly });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const allNamedAreTypes =
        clause?.namedBindings !== undefined &&
        ts.isNamedImports(clause.namedBindings) &&
        clause.name === undefined &&
        clause.namedBindings.elements.every((element) => element.isTypeOnly);
      add(node.moduleSpecifier, clause?.isTypeOnly === true || allNamedAreTypes);
    } else if (ts.isExportDeclaration(node)) {
      add(node.moduleSpecifier, node.isTypeOnly);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0], false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

const files = SOURCE_ROOTS.flatMap((root) => sourceFiles(join(ROOT, root)));
const edges = files.flatMap(importsOf);
const show = (edge: ImportEdge) => `${relative(ROOT, edge.from)} -> ${relative(ROOT, edge.to)}`;

/** Folders at `depth` below the repository root whose imports form a cycle, each cycle once. */
export function folderCycles(allEdges: ImportEdge[], folderOf: (file: string) => string): string[][] {
  const graph = new Map<string, Set<string>>();
  for (const edge of allEdges) {
    const [from, to] = [folderOf(edge.from), folderOf(edge.to)];
    // A folder's own files, and a parent using its sub-folders, are not a cycle.
    if (from === to || to.startsWith(`${from}/`)) continue;
    if (!graph.has(from)) graph.set(from, new Set());
    graph.get(from)?.add(to);
  }
  // Tarjan's strongly connected components: a component of more than one folder is a cycle.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const connect = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node) ?? 0);
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (stack.includes(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member !== undefined) component.push(member);
      } while (member !== undefined && member !== node);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) connect(node);
  return cycles;
}

const folderAt = (depth: number) => (file: string) =>
  relative(ROOT, dirname(file)).split('/').slice(0, depth).join('/');

describe('layers', () => {
  it('reads every source file and finds their imports', () => {
    expect(files.length).toBeGreaterThan(200);
    expect(edges.length).toBeGreaterThan(500);
  });

  it('imports only point down', () => {
    const upward = edges.filter((edge) => {
      const [from, to] = [layerOf(edge.from), layerOf(edge.to)];
      return from !== to && !MAY_IMPORT[from].includes(to);
    });
    expect(upward.map(show)).toEqual([]);
  });

  it('the renderer imports only types, and only from the shared leaf', () => {
    const outside = edges.filter(
      (edge) =>
        layerOf(edge.from) === 'renderer' &&
        layerOf(edge.to) !== 'renderer' &&
        (layerOf(edge.to) !== 'shared' || !edge.typeOnly),
    );
    expect(outside.map(show)).toEqual([]);
  });

  it('has no import cycle between the layers folders', () => {
    expect(folderCycles(edges, folderAt(2))).toEqual([]);
  });

  // The renderer's shell (`app/`) imports features, features never import it; nor does any
  // `features/<domain>` import another one that imports it back (depth 4).
  const rendererEdges = edges.filter(
    (edge) =>
      relative(ROOT, edge.from).startsWith('src-renderer/') &&
      relative(ROOT, edge.to).startsWith('src-renderer/'),
  );

  it('has no import cycle between the renderer folders (app, features, shared, api)', () => {
    expect(folderCycles(rendererEdges, folderAt(3))).toEqual([]);
  });

  it('has no import cycle between the renderer features', () => {
    expect(folderCycles(rendererEdges, folderAt(4))).toEqual([]);
  });

  it('has no import cycle between the folders of src-main (core/runtime, core/storage, …)', () => {
    const inMain = (file: string) => relative(ROOT, file).startsWith('src-main/');
    const mainEdges = edges.filter((edge) => inMain(edge.from) && inMain(edge.to));
    expect(mainEdges.length).toBeGreaterThan(200);
    expect(folderCycles(mainEdges, folderAt(3))).toEqual([]);
  });

  it('finds a cycle when two folders import each other', () => {
    const edge = (from: string, to: string): ImportEdge => ({
      from: join(ROOT, from),
      to: join(ROOT, to),
      typeOnly: false,
    });
    const cycles = folderCycles(
      [
        edge('a/x/one.ts', 'a/y/two.ts'),
        edge('a/y/two.ts', 'a/z/three.ts'),
        edge('a/z/three.ts', 'a/x/four.ts'),
      ],
      folderAt(2),
    );
    expect(cycles).toEqual([['a/x', 'a/y', 'a/z']]);
  });
});
