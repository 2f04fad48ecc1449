/** The documentation page's chat bot block (spec B 2.12, 3 'bot_enabled', 'bot_url'). */
export const chatBotMessages = {
  open: 'Ask our chat bot',
  close: 'Close the chat bot',
  title: 'Chat bot: {{title}}',
  frameTitle: 'Chat bot of the {{title}} documentation',
  openInNewTab: 'Open in a new tab',
};
