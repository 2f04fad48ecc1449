import { describe, expect, it } from 'vitest';
import { chatBotFrameUrl, chatBotUrl } from './chat-bot-url';

describe('chat bot address', () => {
  it('accepts only absolute http(s) URLs', () => {
    expect(chatBotUrl('https://bot.example.com/chat')?.href).toBe('https://bot.example.com/chat');
    expect(chatBotUrl('http://127.0.0.1:4000/')?.origin).toBe('http://127.0.0.1:4000');
    for (const bad of [
      null,
      undefined,
      '',
      'javascript:alert(1)',
      'data:text/html,x',
      '/relative',
      'ftp://x.example',
    ]) {
      expect(chatBotUrl(bad), String(bad)).toBeNull();
    }
  });

  it('passes the documentation and the open operation as query parameters', () => {
    const bot = chatBotUrl('https://bot.example.com/chat?lang=en#start')!;
    expect(chatBotFrameUrl(bot, 'accounts-v1', 'getAccount')).toBe(
      'https://bot.example.com/chat?lang=en&documentation=accounts-v1&operation=getAccount#start',
    );
    expect(chatBotFrameUrl(bot, 'accounts-v1', null)).toBe(
      'https://bot.example.com/chat?lang=en&documentation=accounts-v1#start',
    );
    // Keys of operations without an operationId contain characters a query must encode.
    expect(new URL(chatBotFrameUrl(bot, 'a b', 'get-/x&y')).searchParams.get('operation')).toBe('get-/x&y');
    // The configured URL is not changed.
    expect(bot.href).toBe('https://bot.example.com/chat?lang=en#start');
  });
});
