import { describe, expect, it } from 'vitest';
import { ipcCalls } from '../../../src-shared/contract';

const update = ipcCalls['settings:update'].input;
const messages = (healthChecks: Record<string, unknown>) => {
  const parsed = update.safeParse({ healthChecks });
  return parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

describe('settings:update for the health checks', () => {
  it('takes 0 (off) or 30 s to a day between checks, and says why otherwise', () => {
    expect(messages({ portsEverySeconds: 0 })).toEqual([]);
    expect(messages({ portsEverySeconds: 30 })).toEqual([]);
    expect(messages({ portsEverySeconds: 86_400 })).toEqual([]);
    expect(messages({ portsEverySeconds: 10 })).toEqual([
      'healthChecks.portsEverySeconds: At least 30 seconds (or 0 to turn checks off)',
    ]);
    expect(messages({ portsEverySeconds: 86_401 })).toEqual([
      'healthChecks.portsEverySeconds: At most 86400 seconds',
    ]);
    expect(messages({ portsEverySeconds: 1.5 })).toEqual([
      'healthChecks.portsEverySeconds: Enter a whole number',
    ]);
  });

  it('bounds the thresholds and windows, and takes a check URL by the IP echo’s rule or null', () => {
    expect(
      messages({
        downAfter: 3,
        upAfter: 2,
        repeatWindowHours: 24,
        repeatWindowRotations: 50,
        selfHealAfter: 0,
      }),
    ).toEqual([]);
    expect(messages({ downAfter: 0 })).toEqual(['healthChecks.downAfter: At least 1 checks']);
    expect(messages({ upAfter: 21 })).toEqual(['healthChecks.upAfter: At most 20 checks']);
    expect(messages({ repeatWindowHours: 721 })).toHaveLength(1);
    expect(messages({ checkUrl: null })).toEqual([]);
    expect(messages({ checkUrl: 'https://api.ipify.org?format=json' })).toEqual([]);
    expect(messages({ checkUrl: 'http://127.0.0.1:9/ip' })).toEqual([]);
    expect(messages({ checkUrl: 'http://echo.example.com/' })).toEqual([
      'healthChecks.checkUrl: Use https:// (http:// only for this computer: localhost or 127.0.0.1)',
    ]);
    expect(messages({ everySeconds: 60 })).toHaveLength(1);
  });
});
