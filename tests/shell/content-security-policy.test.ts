import { describe, expect, it } from 'vitest';
import {
  developmentCspListener,
  developmentRendererCsp,
  RENDERER_CSP,
} from '../../src-main/shell/content-security-policy';

const directives = (policy: string) =>
  Object.fromEntries(
    policy.split(';').map((part) => {
      const [name, ...values] = part.trim().split(/\s+/);
      return [name, values.join(' ')];
    }),
  );

describe('renderer Content-Security-Policy', () => {
  it('allows scripts only from the app itself: no inline script, no eval, no remote origin', () => {
    const policy = directives(RENDERER_CSP);
    expect(policy['script-src']).toBe("'self'");
    expect(policy['default-src']).toBe("'self'");
    expect(policy['connect-src']).toBe("'self'");
    expect(policy['object-src']).toBe("'none'");
    expect(policy['base-uri']).toBe("'none'");
    expect(policy['frame-src']).toBe("'none'");
    expect(RENDERER_CSP).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/);
  });

  it('under development adds only what hot reload needs, for that dev server', () => {
    const policy = directives(developmentRendererCsp('http://localhost:5173/'));
    expect(policy['script-src']).toBe("'self' 'unsafe-inline'");
    expect(policy['connect-src']).toBe("'self' ws://localhost:5173");
    expect(policy['object-src']).toBe("'none'");
    expect(JSON.stringify(policy)).not.toContain('unsafe-eval');
  });
});

describe('development policy on the dev server answers', () => {
  it('replaces any policy the server sent and keeps the other headers', () => {
    const listener = developmentCspListener('script-src x');
    let answer: unknown;
    listener(
      { responseHeaders: { 'content-security-policy': ['*'], 'Content-Type': ['text/html'] } },
      (response) => {
        answer = response;
      },
    );
    expect(answer).toEqual({
      responseHeaders: { 'Content-Type': ['text/html'], 'Content-Security-Policy': ['script-src x'] },
    });
  });
});
