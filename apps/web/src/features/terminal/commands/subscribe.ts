import { messageOf } from '../../../lib/api-client';
import { t } from '../../../lib/i18n';
import { applicationChoices, changeSubscription, myApplications, productChoices } from '../api';
import type { Command } from '../registry';

/** subscribe: subscribes one of the user's applications to an API product. */
export const subscribe: Command = {
  name: 'subscribe',
  description: t('terminal.help.subscribe'),
  usage: 'subscribe [--application=] [--product=]',
  precheck: async (ctx) => ((await myApplications(ctx)).length ? null : t('terminal.noApps')),
  inputs: [
    {
      name: 'application',
      label: t('terminal.inputs.application'),
      kind: 'choice',
      choices: (_v, ctx) => applicationChoices(ctx),
    },
    {
      name: 'product',
      label: t('terminal.inputs.product'),
      kind: 'choice',
      choices: (_v, ctx) => productChoices(ctx),
    },
  ],
  async run(values, ctx) {
    try {
      await changeSubscription('subscribe', String(values.application), String(values.product));
    } catch (error) {
      ctx.printError(messageOf(error, t('terminal.somethingWrong')));
      return;
    }
    ctx.changed();
    ctx.print(t('terminal.subscribed'));
  },
};
