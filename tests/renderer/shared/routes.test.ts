import { describe, expect, it } from 'vitest';
import { idsFromHash, screenFromHash } from '../../../src-renderer/src/shared/routes';

/* The list filter a link carries (the Overview's "Show them"): the screen, and the ids to show. */

describe('a list link with ids', () => {
  it('opens the list screen and names the ids, URL-encoded and comma separated', () => {
    const hash = `#/ports?ids=${['port_1', 'port 2', 'a,b'].map(encodeURIComponent).join(',')}`;
    expect(screenFromHash(hash)).toBe('ports');
    expect(idsFromHash(hash)?.split(',').map(decodeURIComponent)).toEqual(['port_1', 'port 2', 'a,b']);
  });

  it('is the whole list without them', () => {
    expect(idsFromHash('#/ports')).toBeNull();
    expect(idsFromHash('#/ports?ids=')).toBeNull();
    expect(idsFromHash('#/subscriptions?sort=label')).toBeNull();
  });
});
