import type { QueryReader } from './input-reader';

export interface Pagination {
  page: number;
  perPage: number;
  total: number;
  totalPages: number;
}

export interface PageRequest {
  page: number;
  perPage: number;
}

/** Reads `page` (>= 1, default 1) and `perPage` (1-100, default 20); invalid values are a 422. */
export function readPageRequest(reader: QueryReader): PageRequest {
  return {
    page: reader.integer('page', { min: 1, fallback: 1 }),
    perPage: reader.integer('perPage', { min: 1, max: 100, fallback: 20 }),
  };
}

/** One page of `items`; a page past the end is empty, not an error. */
export function paginate<T>(
  items: readonly T[],
  request: PageRequest,
): { data: T[]; pagination: Pagination } {
  const start = (request.page - 1) * request.perPage;
  return {
    data: items.slice(start, start + request.perPage),
    pagination: {
      page: request.page,
      perPage: request.perPage,
      total: items.length,
      totalPages: Math.ceil(items.length / request.perPage),
    },
  };
}
