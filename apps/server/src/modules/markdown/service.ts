/**
 * What other modules use of the Markdown module: the reference of a documentation as Markdown (its
 * header and each operation's section, worked out in the document worker pool and cached), and
 * HTML content as Markdown. The MCP module answers its tools with them (modules/mcp).
 */
export { documentationPages, oneOperation, type DocumentationPages } from './documentation.ts';
export { faqMarkdown } from './content.ts';
export { htmlToMarkdown } from './html.ts';
