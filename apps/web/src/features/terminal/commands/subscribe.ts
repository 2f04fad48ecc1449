import { messageOf } from '../../../lib/api-client';
import { t } from '../../../lib/i18n';
import { applicationChoices, changeSubscription, myApplications, productChoices } from '../api';
import type { Command, TerminalContext, Values } from '../registry';
import { confirmed, confirmInput, labelOf } from './confirm';

/** The application's and the product's titles, for the question and the line of a No. */
async function names(values: Values, ctx: TerminalContext) {
  return {
    application: labelOf(await applicationChoices(ctx), values.application),
    product: labelOf(await productChoices(ctx), values.product),
  };
}

/** subscribe: subscribes one of the user's applications to an API product, once confirmed (Yes/No). */
export const subscribe: Command = {
  name: 'subscribe',
  description: t('terminal.help.subscribe'),
  usage: 'subscribe [--application=] [--product=] [--confirm=Yes|No]',
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
    confirmInput(async (values, ctx) => t('terminal.inputs.confirmSubscribe', await names(values, ctx))),
  ],
  async run(values, ctx) {
    if (!confirmed(values)) {
      ctx.print(t('terminal.notSubscribed', await names(values, ctx)));
      return;
    }
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
