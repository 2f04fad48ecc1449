import {
  applicationAttributesSchema,
  applicationFormSchema,
  GRANT_TYPE_VALUES,
} from '@portico/contracts/applications';
import { messageOf } from '../../../lib/api-client';
import { t } from '../../../lib/i18n';
import { createApplication, organizationChoices } from '../api';
import type { Command, Values } from '../registry';
import { confirmed, confirmInput, labelOf } from './confirm';

/** The first problem the application form's own rule finds in one field, or null. */
function fieldProblem(field: 'title' | 'description', value: string): string | null {
  const result = applicationFormSchema.safeParse({
    title: 'x',
    description: 'xx',
    authorizationCodeAllowed: true,
    clientCredentialsAllowed: true,
    oAuthRedirectUri: [],
    postLogoutRedirectUri: [],
    [field]: value,
  });
  return result.success ? null : (result.error.issues.find((i) => i.path[0] === field)?.message ?? null);
}

/** One redirect URI, by the rule of the application form (allowed URL, no fragment). */
function uriProblem(value: string): string | null {
  const result = applicationAttributesSchema.shape.field_oauth_redirect_uri.safeParse([value]);
  return result.success ? null : (result.error.issues[0]?.message ?? null);
}

const list = (v: Values[string]) => (Array.isArray(v) ? v : v ? [v] : []);

/**
 * create-app: asks title, organization, description, allowedGrantTypes, oAuthRedirectUri and
 * postLogoutRedirectUri in order (the redirect URIs only when given on the command line, or when
 * the Authorization Code grant needs one), then whether to create it (Yes/No), and on Yes creates
 * the application with the same call and rules as the application form.
 */
export const createAppCommand: Command = {
  name: 'create-app',
  description: t('terminal.help.create-app'),
  usage:
    'create-app [--title=] [--organization=] [--description=] [--allowedGrantTypes=a,b] [--oAuthRedirectUri=] [--postLogoutRedirectUri=] [--confirm=Yes|No]',
  precheck: async (ctx) => ((await organizationChoices(ctx)).length ? null : t('terminal.noOrganizations')),
  inputs: [
    {
      name: 'title',
      label: t('terminal.inputs.title'),
      kind: 'text',
      validate: (v) => fieldProblem('title', v),
    },
    {
      name: 'organization',
      label: t('terminal.inputs.organization'),
      kind: 'choice',
      choices: (_v, ctx) => organizationChoices(ctx),
      // The only organization is suggested: Enter takes it.
      defaultValue: async (_v, ctx) => {
        const orgs = await organizationChoices(ctx);
        return orgs.length === 1 ? orgs[0]!.label : undefined;
      },
    },
    {
      name: 'description',
      label: t('terminal.inputs.description'),
      kind: 'text',
      validate: (v) => fieldProblem('description', v),
    },
    {
      name: 'allowedGrantTypes',
      label: t('terminal.inputs.allowedGrantTypes'),
      kind: 'multichoice',
      choices: () => GRANT_TYPE_VALUES.map((g) => ({ label: g, value: g })),
    },
    {
      name: 'oAuthRedirectUri',
      label: t('terminal.inputs.oAuthRedirectUri'),
      kind: 'multi',
      optional: (values) => !list(values.allowedGrantTypes).includes('authorization_code'),
      validate: uriProblem,
    },
    {
      name: 'postLogoutRedirectUri',
      label: t('terminal.inputs.postLogoutRedirectUri'),
      kind: 'multi',
      optional: true,
      validate: uriProblem,
    },
    confirmInput(async (values, ctx) =>
      t('terminal.inputs.confirmCreateApp', {
        title: String(values.title),
        organization: labelOf(await organizationChoices(ctx), values.organization),
      }),
    ),
  ],
  async run(values, ctx) {
    const grants = list(values.allowedGrantTypes);
    const title = String(values.title);
    if (!confirmed(values)) {
      ctx.print(t('terminal.appNotCreated', { title }));
      return;
    }
    try {
      await createApplication(String(values.organization), {
        title,
        description: String(values.description),
        authorizationCodeAllowed: grants.includes('authorization_code'),
        clientCredentialsAllowed: grants.includes('client_credentials'),
        oAuthRedirectUri: list(values.oAuthRedirectUri),
        postLogoutRedirectUri: list(values.postLogoutRedirectUri),
      });
    } catch (error) {
      ctx.printError(messageOf(error, t('terminal.somethingWrong')));
      return;
    }
    ctx.changed();
    ctx.print(t('terminal.appCreated', { title }));
  },
};
