import { describe, expect, it } from 'vitest';
import { providedProfileId } from '../../../src-main/core/profiles/profiles-service';

describe('the id of a profile provided for a run', () => {
  const key = 'sk-live-0123456789abcdef';

  it('is the same at every start for the same origin and key, so what began under it resumes', () => {
    const first = providedProfileId('environment', 'https://api.example.com/api/v1', key);
    expect(providedProfileId('environment', 'https://API.example.com:443/api/v1/', key)).toBe(first);
    expect(first).toMatch(/^environment-[0-9a-f]{24}$/);
  });

  it('differs for another key or another origin, and never shows the key', () => {
    const first = providedProfileId('environment', 'https://api.example.com/api/v1', key);
    expect(providedProfileId('environment', 'https://api.example.com/api/v1', `${key}x`)).not.toBe(first);
    expect(providedProfileId('environment', 'https://other.example.com/api/v1', key)).not.toBe(first);
    expect(first).not.toContain(key.slice(3, 12));
  });
});
