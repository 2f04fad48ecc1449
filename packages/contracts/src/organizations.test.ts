import { describe, expect, it } from 'vitest';
import { en } from './messages.ts';
import {
  DOCUMENT_EXTENSIONS,
  extensionAllowed,
  fileExtension,
  inviteMemberSchema,
  memberRolesSchema,
  organizationFormSchema,
} from './organizations.ts';

const M = en.organizations;
const messages = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.success ? [] : r.error!.issues.map((i) => i.message);

describe('organization form rules (spec A 5)', () => {
  it('title is required and at most 255 characters; description at most 5000', () => {
    expect(messages(organizationFormSchema.safeParse({ title: '   ', description: '' }))).toEqual([
      M.titleRequired,
    ]);
    expect(messages(organizationFormSchema.safeParse({ title: 'x'.repeat(256), description: '' }))).toEqual([
      M.titleTooLong,
    ]);
    expect(
      messages(organizationFormSchema.safeParse({ title: 'Acme', description: 'd'.repeat(5001) })),
    ).toEqual([M.descriptionTooLong]);
    expect(organizationFormSchema.parse({ title: '  Acme ', description: '' }).title).toBe('Acme');
  });

  it('an invitation needs a valid e-mail and one or more roles, with the spec’s messages', () => {
    expect(messages(inviteMemberSchema.safeParse({ email: 'nope', roles: [] }))).toEqual([
      M.invalidEmail,
      M.rolesRequired,
    ]);
    expect(messages(inviteMemberSchema.safeParse({ email: '', roles: ['organization-le'] }))).toEqual([
      M.invalidEmail,
    ]);
    expect(inviteMemberSchema.parse({ email: ' a@b.example ', roles: ['organization-le'] }).email).toBe(
      'a@b.example',
    );
    expect(inviteMemberSchema.safeParse({ email: 'a@b.example', roles: ['site-admin'] }).success).toBe(false);
  });

  it('editing roles needs at least one', () => {
    expect(messages(memberRolesSchema.safeParse([]))).toEqual([M.roleRequired]);
    expect(memberRolesSchema.safeParse(['organization-financial']).success).toBe(true);
  });

  it('document extensions are those of spec A 9, case-insensitive', () => {
    expect(DOCUMENT_EXTENSIONS.join(' ')).toBe('txt pdf doc docx crt pem cer der p7b p7c p12 pfx');
    expect(extensionAllowed('Cert.PEM', DOCUMENT_EXTENSIONS)).toBe(true);
    expect(extensionAllowed('tool.exe', DOCUMENT_EXTENSIONS)).toBe(false);
    expect(extensionAllowed('.pdf', DOCUMENT_EXTENSIONS)).toBe(false);
    expect(fileExtension('archive.tar.gz')).toBe('gz');
  });
});
