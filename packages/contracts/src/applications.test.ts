import { describe, expect, it } from 'vitest';
import {
  APPLICATION_MESSAGES,
  applicationAttributesSchema,
  applicationFormSchema,
  goLiveFormSchema,
} from './applications.ts';

const valid = {
  title: 'My app',
  description: '<p>Reads balances</p>',
  authorizationCodeAllowed: false,
  clientCredentialsAllowed: true,
  oAuthRedirectUri: [],
  postLogoutRedirectUri: [],
};
const messages = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.success ? [] : (r.error?.issues.map((i) => i.message) ?? []);

describe('application form rules', () => {
  it('accepts a valid form', () => {
    expect(applicationFormSchema.safeParse(valid).success).toBe(true);
  });
  it('requires a title', () => {
    expect(messages(applicationFormSchema.safeParse({ ...valid, title: ' ' }))).toContain(
      APPLICATION_MESSAGES.required,
    );
  });
  it('limits the description to 1000 characters', () => {
    expect(messages(applicationFormSchema.safeParse({ ...valid, description: 'x'.repeat(1001) }))).toContain(
      'Must be 1000 characters or less',
    );
  });
  it('needs more than one character of text after stripping tags', () => {
    expect(messages(applicationFormSchema.safeParse({ ...valid, description: '<p>a</p>' }))).toContain(
      'Required',
    );
  });
  it('needs at least one grant type', () => {
    expect(
      messages(
        applicationFormSchema.safeParse({
          ...valid,
          clientCredentialsAllowed: false,
          authorizationCodeAllowed: false,
        }),
      ),
    ).toContain('You must select at least one Grant Type');
  });
  it('validates the API attributes the same way', () => {
    const r = applicationAttributesSchema.safeParse({
      title: 'x',
      field_description: { value: '<b>ok text</b>' },
      field_allowed_grant_types: [],
    });
    expect(messages(r)).toContain('You must select at least one Grant Type');
  });
});

describe('go-live form rules', () => {
  it('requires every field and a valid e-mail', () => {
    const r = goLiveFormSchema.safeParse({
      developerType: 'Company',
      firstName: '',
      lastName: 'L',
      companyName: 'C',
      address: 'A',
      email: 'nope',
      siteUrl: 'S',
      useCases: 'U',
    });
    expect(messages(r)).toEqual(expect.arrayContaining(['Required', 'Invalid email']));
  });
});
