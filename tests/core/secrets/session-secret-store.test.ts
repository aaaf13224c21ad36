import { describe, expect, it } from 'vitest';
import { SecretStoreError } from '../../../src-main/core/secrets/secret-store';
import { SessionSecretStore } from '../../../src-main/core/secrets/session-secret-store';

describe('SessionSecretStore', () => {
  it('stores, replaces and deletes secrets by account, in memory only', async () => {
    const store = new SessionSecretStore();
    expect(store.kind).toBe('session');
    expect(await store.get('api-key:a')).toBeNull();
    await store.set('api-key:a', 'first');
    await store.set('api-key:b', 'other');
    await store.set('api-key:a', 'second');
    expect(await store.get('api-key:a')).toBe('second');
    expect(await store.delete('api-key:a')).toBe(true);
    expect(await store.delete('api-key:a')).toBe(false);
    expect(await store.get('api-key:a')).toBeNull();
    expect(await store.get('api-key:b')).toBe('other');
  });

  it('keeps stores apart and forgets everything on clear', async () => {
    const one = new SessionSecretStore();
    const two = new SessionSecretStore();
    await one.set('x', 'secret');
    expect(await two.get('x')).toBeNull();
    one.clear();
    expect(await one.get('x')).toBeNull();
  });

  it('rejects (never throws synchronously) on an empty account name', async () => {
    const store = new SessionSecretStore();
    const pending = store.set('', 'secret');
    await expect(pending).rejects.toBeInstanceOf(SecretStoreError);
    await expect(store.get('')).rejects.toMatchObject({ code: 'invalid_account' });
  });
});
