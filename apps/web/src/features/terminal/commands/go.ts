import { t } from '../../../lib/i18n';
import { applicationChoices, myApplications } from '../api';
import type { Command } from '../registry';

/** go <title>: opens /application/{uuid} of the user's application with that title. */
export const go: Command = {
  name: 'go',
  description: t('terminal.help.go'),
  usage: 'go <application title>',
  precheck: async (ctx) => ((await myApplications(ctx)).length ? null : t('terminal.noApps')),
  inputs: [
    {
      name: 'title',
      label: t('terminal.inputs.title'),
      kind: 'choice',
      choices: (_v, ctx) => applicationChoices(ctx),
      invalidChoiceMessage: t('terminal.titleNotValid'),
    },
  ],
  async run(values, ctx) {
    // The application page reads its organization from the address (?organization=<uuid>).
    const uuid = String(values.title);
    const app = (await myApplications(ctx)).find((a) => a.uuid === uuid);
    const query = app?.organization ? `?organization=${encodeURIComponent(app.organization.uuid)}` : '';
    ctx.navigate(`/application/${encodeURIComponent(uuid)}${query}`);
  },
};
