import { describe, expect, it } from 'vitest';
import { isJsonMediaType } from '../../src-main/lib/json-media-type';

describe('isJsonMediaType', () => {
  it('takes application/json with or without parameters, in any case', () => {
    for (const header of [
      'application/json',
      'application/json; charset=utf-8',
      'Application/JSON;charset="UTF-8"',
    ]) {
      expect(isJsonMediaType(header), header).toBe(true);
    }
  });

  it('refuses other types, look-alikes and garbage', () => {
    for (const header of [
      undefined,
      '',
      'text/plain',
      'application/jsonfoo',
      'application/json-patch+json',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json, text/plain',
      'json',
    ]) {
      expect(isJsonMediaType(header), String(header)).toBe(false);
    }
  });
});
