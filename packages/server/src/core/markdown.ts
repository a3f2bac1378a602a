import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';

// html: operators may write some raw HTML; everything is sanitised below, so this is not trusted output.
const md = new MarkdownIt({ html: true, linkify: true, breaks: true });

// Only these inline-image types may be embedded as data: URLs (no SVG, which can carry script).
const safeDataImage = /^data:image\/(png|jpeg|gif|webp);base64,[a-z0-9+/]*={0,2}$/i;

// markdown-it marks table alignment with style="text-align:…"; keep it as `align` so no style attribute is allowed.
function alignCell(tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
  const { style, ...rest } = attribs;
  const align = /^\s*text-align\s*:\s*(left|right|center)\s*;?\s*$/i.exec(style ?? '')?.[1]?.toLowerCase();
  return { tagName, attribs: align ? { ...rest, align } : rest };
}

const options: sanitizeHtml.IOptions = {
  allowedTags: [
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'blockquote', 'pre', 'code', 'em', 'strong', 'del', 's'],
    ...['ul', 'ol', 'li', 'a', 'img', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'span', 'div', 'sup', 'sub', 'kbd'],
  ],
  allowedAttributes: {
    a: ['href', 'title', 'rel', 'target'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    th: ['align', 'colspan', 'rowspan'],
    td: ['align', 'colspan', 'rowspan'],
  },
  // Fenced code blocks keep their language class for client-side highlighting, and nothing else.
  allowedClasses: { code: [/^language-[\w-]+$/] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    // Articles link to outside sites: open them apart from the app and pass no referrer or ranking.
    a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer nofollow', target: '_blank' }),
    th: alignCell,
    td: alignCell,
  },
  // Runs after the attribute checks: drop an img left without src, or whose data: URL is not a safe image type.
  exclusiveFilter: (frame) => {
    if (frame.tag !== 'img') return false;
    // biome-ignore lint/suspicious/noControlCharactersInRegex: browsers ignore these in URLs; sanitize-html strips them too
    const src = (frame.attribs.src ?? '').replace(/[\x00-\x20]+/g, '');
    return !src || (/^data:/i.test(src) && !safeDataImage.test(src));
  },
};

/** Markdown (with some raw HTML) to HTML that is safe to insert into the page. */
export function renderMarkdown(markdown: string): string {
  return sanitizeHtml(md.render(markdown), options);
}

/** Plain text (not HTML: escape it when inserting) of the start of an article, at most `max` characters. */
export function markdownExcerpt(markdown: string, max = 120): string {
  const escaped = sanitizeHtml(renderMarkdown(markdown), { allowedTags: [], allowedAttributes: {} });
  // sanitize-html escapes text as HTML; undo its three escapes (&amp; last) to get the plain text back.
  const text = escaped.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&').replace(/\s+/g, ' ').trim();
  // Cut by code points so an emoji is never split in half.
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const cut = chars.slice(0, Math.max(0, max - 1)).join('');
  return `${cut.trimEnd()}…`;
}
