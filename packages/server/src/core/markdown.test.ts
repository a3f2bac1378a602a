import { describe, expect, it } from 'vitest';
import { markdownExcerpt, renderMarkdown } from './markdown';

const png = 'data:image/png;base64,iVBORw0KGgo=';

describe('renderMarkdown: unsafe input', () => {
  it('drops event handlers from images', () => {
    const html = renderMarkdown('<img src=x onerror=alert(1)>');
    expect(html).not.toMatch(/onerror/i);
    expect(html).not.toContain('alert');
  });

  it('removes a script together with its content', () => {
    const html = renderMarkdown('before\n\n<script>alert(1)</script>\n\nafter');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toContain('alert');
    expect(html).toContain('before');
    expect(html).toContain('after');
  });

  it('never produces a javascript: link from Markdown', () => {
    const html = renderMarkdown('[a](javascript:alert(1))');
    expect(html).not.toMatch(/href\s*=\s*["']?\s*javascript:/i);
    expect(html).not.toMatch(/<a\b/i);
  });

  it('removes svg and its handlers', () => {
    const html = renderMarkdown('<svg onload=alert(1)><circle/></svg>');
    expect(html).not.toMatch(/<svg|<circle|onload/i);
  });

  it('removes iframes and forms', () => {
    expect(renderMarkdown('<iframe src=https://x>')).not.toMatch(/<iframe/i);
    expect(renderMarkdown('<iframe src="https://x"></iframe>')).not.toMatch(/<iframe|https:\/\/x/i);
    const form = renderMarkdown('<form><input></form>');
    expect(form).not.toMatch(/<form|<input/i);
  });

  it('keeps only png/jpeg/gif/webp data images', () => {
    expect(renderMarkdown(`![p](${png})`)).toBe(`<p><img src="${png}" alt="p" /></p>\n`);
    expect(renderMarkdown(`<img src="${png}">`)).toContain(`src="${png}"`);
    for (const input of [
      '![p](data:image/svg+xml;base64,PHN2Zz4=)',
      '<img src="data:image/svg+xml;base64,PHN2Zz4=">',
      '<img src="data:text/html,<script>alert(1)</script>">',
      '<img src="da&#x09;ta:text/html;base64,PHNjcmlwdD4=">',
    ]) {
      const html = renderMarkdown(input);
      expect(html, input).not.toMatch(/<img[^>]*src=/i);
      expect(html, input).not.toMatch(/<script/i);
    }
  });

  it('keeps only http, https and mailto links, and no protocol-relative ones', () => {
    expect(renderMarkdown('<a href="vbscript:msgbox(1)">v</a>')).not.toMatch(/href/);
    expect(renderMarkdown('<a href="data:text/html,x">d</a>')).not.toMatch(/href/);
    expect(renderMarkdown('<a href="//evil.example">e</a>')).not.toMatch(/href/);
    expect(renderMarkdown('<a href="mailto:help@example.com">m</a>')).toContain('href="mailto:help@example.com"');
  });

  it.each([
    '<IMG SRC="jav&#x09;ascript:alert(1)">',
    '<a href="JaVaScRiPt:alert(1)">x</a>',
    '<a href="&#106;avascript:alert(1)">x</a>',
    '<a href="java\nscript:alert(1)">x</a>',
    '<div style="background:url(javascript:alert(1))">d</div>',
    '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
    '<svg><script>alert(1)</script></svg>',
    '<<script>script>alert(1)<</script>/script>',
    '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
    '<object data="javascript:alert(1)"></object><embed src="javascript:alert(1)">',
    '<body onload=alert(1)>',
    '<details open ontoggle=alert(1)>',
    '<button onclick=alert(1)>b</button>',
    '<span onmouseover="alert(1)">s</span>',
    '<style>@import "javascript:alert(1)";</style>',
    '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  ])('neutralises %s', (input) => {
    const html = renderMarkdown(input);
    for (const bad of [/on\w+\s*=/i, /javascript:/i, /<script/i, /<style/i, /<svg/i, /<iframe/i]) {
      expect(html).not.toMatch(bad);
    }
  });
});

describe('renderMarkdown: ordinary content', () => {
  it('opens links in a new tab without referrer', () => {
    expect(renderMarkdown('<a href="https://example.com">x</a>')).toBe(
      '<p><a href="https://example.com" rel="noopener noreferrer nofollow" target="_blank">x</a></p>\n',
    );
  });

  it('overrides rel and target written by the author', () => {
    const html = renderMarkdown('<a href="https://example.com" target="_self" rel="opener">x</a>');
    expect(html).toContain('target="_blank"');
    expect(html).toContain('rel="noopener noreferrer nofollow"');
    expect(html).not.toContain('_self');
  });

  it('keeps relative links and /files/ images, and links bare URLs', () => {
    expect(renderMarkdown('[guide](/help/start) ![shot](/files/a.png)')).toBe(
      '<p><a href="/help/start" rel="noopener noreferrer nofollow" target="_blank">guide</a> ' +
        '<img src="/files/a.png" alt="shot" /></p>\n',
    );
    expect(renderMarkdown('see https://example.com')).toContain('<a href="https://example.com"');
  });

  it('renders a table with alignment as align attributes', () => {
    expect(renderMarkdown('| a | b |\n|:-|:-:|\n| 1 | 2 |')).toBe(
      [
        '<table>',
        '<thead>',
        '<tr>',
        '<th align="left">a</th>',
        '<th align="center">b</th>',
        '</tr>',
        '</thead>',
        '<tbody>',
        '<tr>',
        '<td align="left">1</td>',
        '<td align="center">2</td>',
        '</tr>',
        '</tbody>',
        '</table>',
        '',
      ].join('\n'),
    );
  });

  it('keeps the language class on fenced code, and no other class', () => {
    expect(renderMarkdown('```ts\nconst a = 1 < 2;\n```')).toBe(
      '<pre><code class="language-ts">const a = 1 &lt; 2;\n</code></pre>\n',
    );
    expect(renderMarkdown('<code class="language-js evil">x</code>')).toBe(
      '<p><code class="language-js">x</code></p>\n',
    );
  });

  it('renders headings, lists and line breaks', () => {
    expect(renderMarkdown('# One\n## Two\n\n- a\n- b\n\n1. x\n2. y\n\nline1\nline2')).toBe(
      '<h1>One</h1>\n<h2>Two</h2>\n<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n<ol>\n<li>x</li>\n<li>y</li>\n</ol>\n' +
        '<p>line1<br />\nline2</p>\n',
    );
  });

  it('passes Chinese text through unchanged', () => {
    const text = '你好，世界！请在「设置」中修改密码：第一步、第二步。';
    expect(renderMarkdown(text)).toBe(`<p>${text}</p>\n`);
    expect(renderMarkdown(`## 常见问题\n\n**注意**：${text}`)).toBe(
      `<h2>常见问题</h2>\n<p><strong>注意</strong>：${text}</p>\n`,
    );
  });
});

describe('markdownExcerpt', () => {
  it('strips tags and collapses whitespace', () => {
    expect(markdownExcerpt('# 标题\n\n这是 **加粗** 文本\n\n- a\n- b')).toBe('标题 这是 加粗 文本 a b');
  });

  it('returns plain text, not HTML entities, and drops scripts', () => {
    expect(markdownExcerpt('Tom & Jerry use `<b>`<script>alert(1)</script>')).toBe('Tom & Jerry use <b>');
  });

  it('cuts to max characters with an ellipsis', () => {
    const out = markdownExcerpt('字'.repeat(200), 10);
    expect(out).toBe(`${'字'.repeat(9)}…`);
    expect(Array.from(markdownExcerpt('a'.repeat(500))).length).toBe(120);
    expect(markdownExcerpt('short text', 10)).toBe('short text');
  });

  it('never splits an emoji', () => {
    expect(markdownExcerpt('😀'.repeat(5), 3)).toBe('😀😀…');
  });
});
