import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../src-main/core/settings/settings-schema';
import { findSecretLikeMember } from '../../../src-main/core/storage/json-file';

describe('findSecretLikeMember', () => {
  it('finds secret-looking names and key= URLs, and leaves ordinary settings alone', () => {
    expect(findSecretLikeMember(defaultSettings())).toBeNull();
    expect(findSecretLikeMember({ a: [{ b: 'https://x.test/rotate?format=text&key=abc' }] })).toBe('a[0].b');
    expect(findSecretLikeMember({ idempotencyKey: 'x', keyStorage: 'keychain' })).toBeNull();
    expect(findSecretLikeMember({ nested: { Token: 'x' } })).toBe('nested.Token');
  });
});
