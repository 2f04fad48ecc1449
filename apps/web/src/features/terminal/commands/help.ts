import { t } from '../../../lib/i18n';
import type { Command } from '../registry';

/** help [command]: the list of commands, or one command's usage; an unknown one: the not-found view. */
export const help: Command = {
  name: 'help',
  description: t('terminal.help.help'),
  usage: 'help [command]',
  inputs: [
    {
      name: 'command',
      label: 'Command',
      kind: 'text',
      optional: true,
      suggest: (ctx) => ctx.commands.map((c) => c.name),
    },
  ],
  run(values, ctx) {
    const asked = typeof values.command === 'string' ? values.command.trim().toLowerCase() : '';
    if (asked) {
      const command = ctx.commands.find((c) => c.name === asked);
      if (!command) {
        // The not-found view.
        ctx.printError('404');
        ctx.printError(t('terminal.helpNotFound', { command: asked }));
        return;
      }
      ctx.print(`${command.name} - ${command.description}`);
      ctx.print(t('terminal.usage', { usage: command.usage }));
      return;
    }
    ctx.print(t('terminal.helpHeader'));
    const width = Math.max(...ctx.commands.map((c) => c.name.length));
    for (const c of ctx.commands) ctx.print(`  ${c.name.padEnd(width)}  ${c.description}`);
  },
};
