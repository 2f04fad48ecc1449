import { t } from '../../../lib/i18n';
import type { Choice, InputSpec, TerminalContext, Values } from '../registry';

/**
 * The last input of a command that changes the portal (create-app, subscribe): a Yes/No question
 * naming what is about to happen (spec B 5: only Yes or No, 'Expected Yes/No'). It suggests no
 * answer, so Enter alone is 'Value required'; `--confirm=Yes` on the command line answers it. The
 * command does its work only on Yes, and on No prints a line saying nothing was done.
 */
export function confirmInput(
  question: (values: Values, ctx: TerminalContext) => Promise<string> | string,
): InputSpec {
  return { name: 'confirm', label: t('terminal.inputs.confirm'), kind: 'yesno', question };
}

/** Whether the command's confirmation was answered Yes (the dialogue gives 'Yes' or 'No'). */
export function confirmed(values: Values): boolean {
  return values.confirm === 'Yes';
}

/** The label of a chosen value (the dialogue keeps values: uuids), for a question or a line. */
export function labelOf(choices: readonly Choice[], value: Values[string]): string {
  return choices.find((c) => c.value === value)?.label ?? String(value);
}
