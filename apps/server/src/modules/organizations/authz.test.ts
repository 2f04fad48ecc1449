import { describe, expect, it } from 'vitest';
import { PERMISSIONS, ROLE_IDS, decide, type Actor, type Permission, type RoleId } from './authz.ts';

/**
 * The role x permission matrix written out by hand (spec A 3 'Role' and 6), independent of the
 * table in authz.ts: a change of either shows up here.
 */
const O = 'organization-admin';
const D = 'organization-developer';
const F = 'organization-financial';
const L = 'organization-le';
const MATRIX: Record<Permission, RoleId[]> = {
  'view group': [O, D, F, L],
  'view members': [O, D, F, L],
  'view group_node:application entity': [O, D, F, L],
  'edit group': [O],
  'delete group': [O],
  'administer members': [O],
  'edit member roles': [O],
  'upload documents': [O, D, L],
  'create group_node:application content': [O, D],
  'create group_node:application entity': [O, D],
  'update any group_node:application entity': [O, D],
  'delete any group_node:application content': [O],
  'delete any group_node:application entity': [O],
  'view consumption': [O, D, F],
};

const member = (roles: string[], status: 'active' | 'pending_invitation' | 'blocked' = 'active'): Actor => ({
  signedIn: true,
  membership: { status, roles },
  isCreator: false,
});

describe('organization authorization', () => {
  it('names every permission in the matrix', () => {
    expect(Object.keys(MATRIX).sort()).toEqual([...PERMISSIONS].sort());
  });

  for (const permission of PERMISSIONS) {
    it(`${permission}: ${MATRIX[permission].join(', ')}`, () => {
      for (const role of ROLE_IDS) {
        expect([role, decide(member([role]), permission)]).toEqual([
          role,
          MATRIX[permission].includes(role) ? 'allow' : 403,
        ]);
      }
      expect(decide({ signedIn: false, membership: null, isCreator: false }, permission)).toBe(401);
      expect(decide({ signedIn: true, membership: null, isCreator: false }, permission)).toBe(404);
      expect(decide(member([O], 'pending_invitation'), permission)).toBe(403);
      expect(decide(member([O], 'blocked'), permission)).toBe(403);
      // The creator is an owner whatever the stored roles say.
      expect(decide({ ...member([F]), isCreator: true }, permission)).toBe('allow');
    });
  }

  it('grants the union of several roles and ignores unknown ones', () => {
    expect(decide(member([F, L]), 'upload documents')).toBe('allow');
    expect(decide(member([F, L]), 'view consumption')).toBe('allow');
    expect(decide(member([F, L]), 'edit group')).toBe(403);
    expect(decide(member(['organization-king']), 'view group')).toBe(403);
  });
});
