import type { Command } from '../registry';
import { createAppCommand } from './create-app';
import { go } from './go';
import { help } from './help';
import { lorem } from './lorem';
import { ls } from './ls';
import { clear, guid, init, mini, snake } from './simple';
import { subscribe } from './subscribe';

/** Every terminal command (spec B 2.17), in help's order. A new command: one file and one entry here. */
export const commands: readonly Command[] = [
  ls,
  go,
  createAppCommand,
  subscribe,
  lorem,
  guid,
  init,
  mini,
  clear,
  snake,
  help,
];

export function findCommand(name: string): Command | undefined {
  return commands.find((c) => c.name === name);
}
