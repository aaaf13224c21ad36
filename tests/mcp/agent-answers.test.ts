import { describe, expect, it } from 'vitest';
import { ANSWER_MAX_BYTES, AnswerTooLarge, shapeAnswer } from '../../src-main/mcp/agent-answers';

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

const port = (index: number, note = '') => ({ id: `port_${index}`, label: `Port ${index}`, note });

describe('answers sized for an agent', () => {
  it('pages a list with a limit and a cursor that goes on where the page ended', () => {
    const all = Array.from({ length: 120 }, (_, index) => port(index));
    const first = shapeAnswer(all, {
      list: { path: '' },
      page: { limit: 50, cursor: null },
      full: false,
    }) as {
      items: { id: string }[];
      total: number;
      nextCursor: string;
    };
    expect(first.items).toHaveLength(50);
    expect(first.total).toBe(120);
    const third = shapeAnswer(all, {
      list: { path: '' },
      page: {
        limit: 50,
        cursor: (
          shapeAnswer(all, {
            list: { path: '' },
            page: { limit: 50, cursor: first.nextCursor },
            full: false,
          }) as { nextCursor: string }
        ).nextCursor,
      },
      full: false,
    }) as { items: { id: string }[]; nextCursor: string | null };
    expect(third.items.map((item) => item.id)).toEqual(all.slice(100).map((item) => item.id));
    expect(third.nextCursor).toBeNull();
  });

  it('stays under 80 kB whatever the account’s size: a page holds fewer items, the cursor goes on', () => {
    const huge = Array.from({ length: 20_000 }, (_, index) => port(index, 'x'.repeat(400)));
    const page = shapeAnswer(huge, {
      list: { path: '' },
      page: { limit: 500, cursor: null },
      full: false,
    }) as {
      items: unknown[];
      nextCursor: string;
    };
    expect(bytes(page)).toBeLessThanOrEqual(ANSWER_MAX_BYTES);
    expect(page.items.length).toBeGreaterThan(50);
    expect(page.items.length).toBeLessThan(500);
    const next = shapeAnswer(huge, {
      list: { path: '' },
      page: { limit: 500, cursor: page.nextCursor },
      full: false,
    }) as {
      items: { id: string }[];
    };
    expect(next.items[0]?.id).toBe(`port_${page.items.length}`);
  });

  it('leaves long fields out unless asked, and cuts them when even one item is too large', () => {
    const exported = { fileName: 'a.csv', csv: 'row\n'.repeat(10_000), rows: 10_000 };
    const short = shapeAnswer(exported, { full: false }) as { csv: string };
    expect(short.csv).toMatch(/^\[left out: 40000 characters; call again with "full": true/);
    expect(shapeAnswer(exported, { full: true })).toEqual(exported);
    const enormous = { csv: 'y'.repeat(500_000) };
    const cut = shapeAnswer(enormous, { full: true });
    expect(bytes(cut)).toBeLessThanOrEqual(ANSWER_MAX_BYTES);
  });

  it('pages a list inside an answer and keeps the rest of it', () => {
    const view = {
      paused: false,
      schedules: Array.from({ length: 3 }, (_, index) => ({ portId: `p${index}` })),
    };
    const answer = shapeAnswer(view, {
      list: { path: 'schedules' },
      page: { limit: 2, cursor: null },
      full: false,
    });
    expect(answer).toMatchObject({
      paused: false,
      total: 3,
      schedules: [{ portId: 'p0' }, { portId: 'p1' }],
    });
  });

  it('throws AnswerTooLarge when no paging or cutting brings an answer under the bound', () => {
    // Not a list the server pages, and no long field to cut: the tool answers an error, not a stub.
    const unpaged = {
      ports: Array.from({ length: 5_000 }, (_, index) => ({ id: `port_${index}`, ok: true })),
    };
    expect(() => shapeAnswer(unpaged, { full: false })).toThrow(AnswerTooLarge);
    expect(() => shapeAnswer(unpaged, { full: false })).toThrow(/smaller limit or page/);
  });

  it('refuses a cursor it did not give', () => {
    expect(() =>
      shapeAnswer([1, 2], { list: { path: '' }, page: { limit: 1, cursor: 'bogus' }, full: false }),
    ).toThrow(/cursor/);
  });
});
