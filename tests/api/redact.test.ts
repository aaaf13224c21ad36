import { describe, expect, it } from 'vitest';
import {
  isSecretName,
  REDACTED,
  redactHeaders,
  redactText,
  redactUrl,
  redactValue,
  Redactor,
} from '../../src-main/api/redact';

describe('redactText', () => {
  it('removes key= values from rotation links and other query secrets', () => {
    expect(redactUrl('https://h/api/v1/v1/mobile/p1/rotate?key=abc123&format=text')).toBe(
      `https://h/api/v1/v1/mobile/p1/rotate?key=${REDACTED}&format=text`,
    );
    expect(redactText('GET /x?format=json&KEY=abc#frag and ?api_key=zzz&token=t')).toBe(
      `GET /x?format=json&KEY=${REDACTED}#frag and ?api_key=${REDACTED}&token=${REDACTED}`,
    );
    expect(redactText('monkey=banana&keyboard=1')).toBe('monkey=banana&keyboard=1');
  });

  it('removes Authorization values and bare bearer tokens', () => {
    expect(redactText('Authorization: Bearer sk_live_1')).toBe(`Authorization: ${REDACTED}`);
    expect(redactText('{"authorization":"Basic dXNlcg=="}')).toBe(`{"authorization":"${REDACTED}"}`);
    expect(redactText('sent Bearer abc.def to host')).toBe(`sent Bearer ${REDACTED} to host`);
  });

  it('removes passwords in JSON, in text and in URLs', () => {
    expect(redactText('{"username":"u1","password":"p\\"w","rotationLink":"https://h/r?key=k"}')).toBe(
      `{"username":"u1","password":"${REDACTED}","rotationLink":"${REDACTED}"}`,
    );
    expect(redactText('password=hunter2&passwd = swordfish')).toBe(
      `password=${REDACTED}&passwd = ${REDACTED}`,
    );
    // Field errors read "password: <message>"; the message is not a secret and stays readable.
    expect(redactText('password: must be printable ASCII')).toBe('password: must be printable ASCII');
    expect(redactText('http://user-1:pa55@gw.example:8000')).toBe(
      `http://user-1:${REDACTED}@gw.example:8000`,
    );
  });

  it('removes known secrets anywhere, raw or URL-encoded, longest first', () => {
    const key = 'k3y/with+chars';
    expect(redactText(`a ${key} b ${encodeURIComponent(key)} c`, [key])).toBe(
      `a ${REDACTED} b ${REDACTED} c`,
    );
    expect(redactText('abcdef abc', ['abc', 'abcdef'])).toBe(`${REDACTED} abc`);
  });

  it('is idempotent and leaves ordinary text alone', () => {
    const once = redactText('GET /rotate?key=abc Authorization: Bearer x password=y');
    expect(redactText(once)).toBe(once);
    expect(redactText('Rotation within 30 seconds of the last one')).toBe(
      'Rotation within 30 seconds of the last one',
    );
  });
});

describe('redactHeaders', () => {
  it('replaces secret headers and redacts the others', () => {
    expect(
      redactHeaders(
        {
          Authorization: 'Bearer abc',
          'Proxy-Authorization': 'Basic x',
          cookie: ['a=1', 'b=2'],
          location: 'https://h/rotate?key=abc',
          'content-length': 12,
          skipped: undefined,
        },
        ['abc'],
      ),
    ).toEqual({
      Authorization: REDACTED,
      'Proxy-Authorization': REDACTED,
      cookie: REDACTED,
      location: `https://h/rotate?key=${REDACTED}`,
      'content-length': '12',
    });
  });
});

describe('redactValue', () => {
  it('deep-copies with secret members replaced and strings redacted, safe on cycles', () => {
    const input: Record<string, unknown> = {
      port: { id: 'p1', password: 'pw', rotationLink: 'https://h?key=k', api_key: 'zz', note: 'Bearer tok' },
      list: [{ Password: 'x' }, 'password=y'],
      nothing: { password: null },
      error: new Error('failed GET /rotate?key=k'),
    };
    input.self = input;
    expect(redactValue(input)).toEqual({
      port: {
        id: 'p1',
        password: REDACTED,
        rotationLink: REDACTED,
        api_key: REDACTED,
        note: `Bearer ${REDACTED}`,
      },
      list: [{ Password: REDACTED }, `password=${REDACTED}`],
      nothing: { password: null },
      error: `Error: failed GET /rotate?key=${REDACTED}`,
      self: '[Circular]',
    });
    expect((input.port as Record<string, unknown>).password).toBe('pw');
  });

  it('knows secret names', () => {
    expect(
      ['password', 'apiKey', 'API-KEY', 'rotation_link', 'authorization', 'Set-Cookie'].every(isSecretName),
    ).toBe(true);
    expect(['username', 'keyboard', 'label'].some(isSecretName)).toBe(false);
  });
});

describe('Redactor', () => {
  it('remembers secrets added later and skips ones too short to be safe', () => {
    const redactor = new Redactor(['sandbox-demo-key', null, undefined]);
    redactor.add('abc');
    redactor.add('port-pass-123');
    expect(redactor.text('sandbox-demo-key abc port-pass-123')).toBe(`${REDACTED} abc ${REDACTED}`);
    expect(redactor.url('/x?format=sandbox-demo-key')).toBe(`/x?format=${REDACTED}`);
    expect(redactor.headers({ 'x-echo': 'port-pass-123' })).toEqual({ 'x-echo': REDACTED });
    expect(redactor.value({ note: 'port-pass-123' })).toEqual({ note: REDACTED });
  });
});
