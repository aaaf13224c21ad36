import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueryReader } from '../../src/http/input-reader';
import { paginate, readPageRequest } from '../../src/http/pagination';
import { TestSandbox } from '../../src/testing';
import { probeModule } from '../support/probe-module';

const items = Array.from({ length: 45 }, (_, i) => i + 1);

describe('readPageRequest and paginate', () => {
  const read = (query: string) => {
    const reader = new QueryReader(new URLSearchParams(query));
    const request = readPageRequest(reader);
    return { request, errors: reader.errors.errors };
  };

  it('defaults to page 1 of 20', () => {
    expect(read('').request).toEqual({ page: 1, perPage: 20 });
  });

  it('cuts one page and reports page, perPage, total and totalPages', () => {
    expect(paginate(items, { page: 3, perPage: 20 })).toEqual({
      data: [41, 42, 43, 44, 45],
      pagination: { page: 3, perPage: 20, total: 45, totalPages: 3 },
    });
  });

  it('answers an empty page past the end, not an error', () => {
    expect(paginate(items, { page: 4, perPage: 20 }).data).toEqual([]);
  });

  it('has zero pages for an empty list', () => {
    expect(paginate([], { page: 1, perPage: 20 }).pagination).toEqual({
      page: 1,
      perPage: 20,
      total: 0,
      totalPages: 0,
    });
  });

  it.each([
    ['page=0', 'page', 'too_small'],
    ['page=-1', 'page', 'too_small'],
    ['page=1.5', 'page', 'invalid_type'],
    ['page=abc', 'page', 'invalid_type'],
    ['page=', 'page', 'invalid_type'],
    ['perPage=0', 'perPage', 'too_small'],
    ['perPage=101', 'perPage', 'too_big'],
    ['perPage=1e2', 'perPage', 'invalid_type'],
    ['page=99999999999999999999', 'page', 'too_big'],
  ])('refuses %s', (query, field, code) => {
    expect(read(query).errors).toEqual([{ field, code, message: expect.any(String) }]);
  });

  it('accepts the bounds 1 and 100 of perPage', () => {
    expect(read('perPage=1').request.perPage).toBe(1);
    expect(read('perPage=100').request.perPage).toBe(100);
  });

  it('reports page and perPage together when both are bad', () => {
    expect(read('page=0&perPage=500').errors.map((e) => e.field)).toEqual(['page', 'perPage']);
  });
});

describe('paging over HTTP', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await TestSandbox.start({ extraModules: [probeModule] });
  });
  afterAll(() => sandbox.close());

  it('answers {data, pagination} and a 422 validation_error for invalid page and perPage', async () => {
    const page = await sandbox.request('GET', '/v1/__probe/items?page=2&perPage=10');
    expect(page.status).toBe(200);
    expect(page.json.data).toHaveLength(10);
    expect(page.json.pagination).toEqual({ page: 2, perPage: 10, total: 45, totalPages: 5 });
    const bad = await sandbox.request('GET', '/v1/__probe/items?page=0&perPage=101');
    expect(bad.status).toBe(422);
    expect(bad.json.error.code).toBe('validation_error');
    expect(bad.json.error.fields.map((f: { field: string }) => f.field)).toEqual(['page', 'perPage']);
  });
});
