import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applicationAttributesSchema, APPLICATION_MESSAGES as M } from './applications.ts';
import { isAllowedRedirectUri, nativeLoopbackConflict } from './redirect-uri.ts';

describe('isAllowedRedirectUri', () => {
  it.each([
    'https://app.example/callback',
    'https://localhost:8443/cb',
    'http://localhost:3000/cb',
    'http://127.0.0.1:51000/oauth',
    'http://[::1]:8080/cb',
    'com.example.app:/oauth2redirect',
    'com.example.app://callback',
  ])('accepts %s', (uri) => expect(isAllowedRedirectUri(uri)).toBe(true));

  it.each([
    'javascript:alert(1)',
    'JavaScript://x.example/%0aalert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    'blob:https://app.example/1',
    'about:blank',
    'http://app.example/callback',
    'http://127.0.0.1.evil.example/cb',
    'myapp://callback',
    'not a url',
    '',
  ])('refuses %s', (uri) => expect(isAllowedRedirectUri(uri)).toBe(false));

  it('never accepts a scheme a browser runs, however it is written', () => {
    const scheme = fc.constantFrom('javascript', 'data', 'vbscript', 'file', 'blob', 'about');
    const casing = fc.array(fc.boolean(), { minLength: 10, maxLength: 10 });
    fc.assert(
      fc.property(scheme, casing, fc.string(), (s, upper, rest) => {
        const mixed = [...s].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('');
        return !isAllowedRedirectUri(`${mixed}:${rest}`) && !isAllowedRedirectUri(` ${mixed}:${rest}`);
      }),
    );
  });

  it('accepts http only on loopback hosts', () => {
    fc.assert(
      fc.property(
        fc.domain(),
        (host) => isAllowedRedirectUri(`http://${host}/cb`) === (host === 'localhost'),
      ),
    );
  });
});

describe('nativeLoopbackConflict', () => {
  it('finds https on a loopback host in the list of a native app', () => {
    expect(nativeLoopbackConflict(['com.example.app:/cb', 'https://localhost/cb'])).toBe(1);
    expect(nativeLoopbackConflict(['com.example.app:/cb', 'http://127.0.0.1/cb'])).toBe(-1);
    expect(nativeLoopbackConflict(['https://localhost/cb'])).toBe(-1);
  });
});

describe('the application schema', () => {
  it('refuses a script URI with the form message, naming the list entry', () => {
    const result = applicationAttributesSchema.safeParse({
      title: 'App',
      field_description: 'About the app',
      field_allowed_grant_types: ['authorization_code'],
      field_oauth_redirect_uri: ['https://ok.example/cb', 'javascript:alert(1)'],
      field_postlogout_redirect_uri: ['data:text/html,x'],
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.message, i.path.join('/')])).toEqual([
      [M.redirectUriNotAllowed, 'field_oauth_redirect_uri/1'],
      [M.redirectUriNotAllowed, 'field_postlogout_redirect_uri/0'],
    ]);
  });
});
