import { GRANT_TYPE_VALUES } from '@portico/contracts/applications';
import { parse } from 'yaml';
import { z } from 'zod';
import type { ContentImporter } from '../../content/content-importer.ts';
import { findProduct } from '../catalog/service.ts';
import { userByEmail } from '../identity/service.ts';
import { createOrganization } from '../organizations/service.ts';
import { sanitizeDescription } from './description.ts';
import { assertSubscribable, checkClientRules, createApplication } from './service.ts';

const demoFile = z.object({
  organizations: z.array(
    z.object({
      /** Names the import; never shown. Renaming it imports the organization again. */
      key: z.string().regex(/^[a-z0-9-]+$/),
      title: z.string().trim().min(1).max(255),
      description: z.string().default(''),
      /** E-mail of an existing account (content/users.yaml): the organization's creator and owner. */
      owner: z.email(),
      applications: z
        .array(
          z.object({
            title: z.string().trim().min(1).max(255),
            description: z.string().default(''),
            grantTypes: z.array(z.enum(GRANT_TYPE_VALUES)).min(1),
            redirectUris: z.array(z.url()).default([]),
            postLogoutRedirectUris: z.array(z.url()).default([]),
            /** Aliases of API products to subscribe to. */
            products: z.array(z.string().min(1)).default([]),
          }),
        )
        .default([]),
    }),
  ),
});

const POINTERS = {
  grantTypes: 'grantTypes',
  redirectUris: 'redirectUris',
  postLogoutRedirectUris: 'postLogoutRedirectUris',
};

/**
 * content/organizations.yaml: the demo accounts' organizations and applications, so that a first
 * start shows a working team (an owner, a development application with real OAuth credentials and
 * subscriptions). Everything goes through the same services as the portal's own calls. Each
 * organization is imported once (content_imports): what users later change or delete stays so.
 * Runs after the users and the catalog, whose accounts and products it names.
 */
export const demoOrganizationsImporter: ContentImporter = {
  name: 'demo-organizations',
  async run({ db, read, log, secretBox }) {
    const text = read('organizations.yaml');
    if (!text) return;
    const parsed = demoFile.safeParse(parse(text));
    if (!parsed.success) throw new Error(`content/organizations.yaml is invalid: ${parsed.error.message}`);
    if (!secretBox) throw new Error('content/organizations.yaml needs the secret box for OAuth clients');
    for (const org of parsed.data.organizations) {
      const key = `organization:${org.key}`;
      const imported = await db.transaction().execute(async (trx) => {
        const claimed = await trx
          .insertInto('content_imports')
          .values({ key })
          .onConflict((oc) => oc.doNothing())
          .returning('key')
          .executeTakeFirst();
        if (!claimed) return false;
        const owner = await userByEmail(trx, org.owner);
        if (!owner) throw new Error(`content/organizations.yaml: ${org.key}: no account ${org.owner}`);
        const created = await createOrganization(trx, {
          title: org.title,
          description: org.description,
          creator: owner,
        });
        for (const app of org.applications) {
          const products = [];
          for (const alias of app.products) {
            const product = await findProduct(trx, alias);
            if (!product) throw new Error(`content/organizations.yaml: ${app.title}: no product ${alias}`);
            assertSubscribable(product);
            products.push(product);
          }
          const fields = {
            title: app.title,
            description: sanitizeDescription(app.description),
            grantTypes: app.grantTypes,
            redirectUris: app.redirectUris,
            postLogoutRedirectUris: app.postLogoutRedirectUris,
          };
          checkClientRules(fields, POINTERS);
          await createApplication(trx, secretBox, {
            ...fields,
            organizationId: created.id,
            createdBy: owner.id,
            productIds: products.map((p) => p.id),
          });
        }
        return true;
      });
      if (imported) log.info({ organization: org.title }, 'demo organization created');
    }
  },
};
