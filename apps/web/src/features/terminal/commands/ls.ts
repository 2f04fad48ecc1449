import { t } from '../../../lib/i18n';
import { myApplications } from '../api';
import type { Command } from '../registry';

/** ls: the user's applications, with their organization. */
export const ls: Command = {
  name: 'ls',
  description: t('terminal.help.ls'),
  usage: 'ls',
  inputs: [],
  async run(_values, ctx) {
    const apps = await myApplications(ctx);
    if (!apps.length) {
      ctx.print(t('terminal.noApps'));
      return;
    }
    const width = Math.max(...apps.map((a) => a.title.length));
    for (const a of apps) {
      ctx.print(`${a.title.padEnd(width)}  ${a.organization?.title ?? ''}`.trimEnd());
    }
  },
};
