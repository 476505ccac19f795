/**
 * Markdown read as a renderer reads it (markdown-it: CommonMark with GFM tables, strikethrough
 * and autolinks, raw HTML allowed as GitHub allows some): what a hostile text could turn into.
 */
import MarkdownIt from "markdown-it";

/**
 * A CommonMark + GFM reader that keeps raw HTML as HTML tokens, so a test can see it, and links
 * bare URLs, domains and addresses as GFM's autolink extension does (markdown-it's linkify).
 */
export const markdownReader = new MarkdownIt({ html: true, linkify: true, typographer: false });

/** What a renderer makes of `text` as inline Markdown, as HTML. */
export function renderInline(text: string): string {
  return markdownReader.renderInline(text);
}

/** HTML-escapes as markdown-it escapes text. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

/** The block structure of a document: headings, fences, raw HTML and links, as the reader sees. */
export function structureOf(markdown: string): {
  readonly headings: string[];
  readonly fences: { readonly info: string; readonly content: string }[];
  readonly html: string[];
  readonly links: string[];
} {
  const tokens = markdownReader.parse(markdown, {});
  const headings: string[] = [];
  const fences: { info: string; content: string }[] = [];
  const html: string[] = [];
  const links: string[] = [];
  tokens.forEach((token, i) => {
    if (token.type === "heading_open") headings.push(tokens[i + 1]?.content ?? "");
    if (token.type === "fence" || token.type === "code_block") {
      fences.push({ info: token.info, content: token.content });
    }
    if (token.type === "html_block") html.push(token.content);
    for (const child of token.children ?? []) {
      if (child.type === "html_inline") html.push(child.content);
      if (child.type === "link_open" || child.type === "image") {
        links.push(child.attrGet("href") ?? child.attrGet("src") ?? "");
      }
    }
  });
  return { headings, fences, html, links };
}
