import { t } from '../../../lib/i18n';
import type { Command } from '../registry';

/** guid: a new random GUID (RFC 4122 version 4). */
export const guid: Command = {
  name: 'guid',
  description: t('terminal.help.guid'),
  usage: 'guid',
  inputs: [],
  run(_values, ctx) {
    ctx.print(crypto.randomUUID());
  },
};

/** init: the welcome message; runs when the terminal opens. */
export const init: Command = {
  name: 'init',
  description: t('terminal.help.init'),
  usage: 'init',
  inputs: [],
  run(_values, ctx) {
    ctx.print(t('terminal.welcome'));
  },
};

/** mini: minifies the window to its title bar. */
export const mini: Command = {
  name: 'mini',
  description: t('terminal.help.mini'),
  usage: 'mini',
  inputs: [],
  run(_values, ctx) {
    ctx.minify();
  },
};

/** clear: clears the screen. */
export const clear: Command = {
  name: 'clear',
  description: t('terminal.help.clear'),
  usage: 'clear',
  inputs: [],
  run(_values, ctx) {
    ctx.clear();
  },
};

/** snake: the game, on its own canvas over the terminal. */
export const snake: Command = {
  name: 'snake',
  description: t('terminal.help.snake'),
  usage: 'snake',
  inputs: [],
  async run(_values, ctx) {
    await ctx.play('snake');
  },
};
