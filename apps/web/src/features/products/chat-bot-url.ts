export { chatBotUrl } from '@portico/contracts/chat-bot';

/**
 * The bot's address with the page's context as query parameters, so that the bot knows what the
 * user is reading: `documentation` (the documentation's alias) and, when one is open,
 * `operation` (the operation's key, as in the '#operation/<key>' deep links). Parameters of the
 * configured URL stay; its fragment too.
 */
export function chatBotFrameUrl(
  botUrl: URL,
  documentationAlias: string,
  operationKey: string | null,
): string {
  const url = new URL(botUrl);
  url.searchParams.set('documentation', documentationAlias);
  if (operationKey) url.searchParams.set('operation', operationKey);
  else url.searchParams.delete('operation');
  return url.toString();
}
