// A small Markdown reader for release notes: headings, lists, code blocks, paragraphs, and inline
// bold, italic, code and links. It produces a tree of plain values that React renders as text,
// so nothing in the notes can inject markup.

export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'strong' | 'emphasis'; children: Inline[] }
  | { kind: 'link'; href: string; children: Inline[] };

export type Block =
  | { kind: 'heading'; level: 1 | 2 | 3 | 4 | 5 | 6; content: Inline[] }
  | { kind: 'paragraph'; content: Inline[] }
  | { kind: 'list'; ordered: boolean; items: Inline[][] }
  | { kind: 'code'; text: string };

const HEADING = /^(#{1,6})\s+(.*?)\s*#*$/;
const UNORDERED_ITEM = /^\s*[-*+]\s+(.*)$/;
const ORDERED_ITEM = /^\s*\d+[.)]\s+(.*)$/;
const FENCE = /^\s*```/;

export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const endParagraph = () => {
    if (paragraph.length > 0) blocks.push({ kind: 'paragraph', content: parseInline(paragraph.join(' ')) });
    paragraph = [];
  };

  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    if (FENCE.test(line)) {
      endParagraph();
      const code: string[] = [];
      while (++index < lines.length && !FENCE.test(lines[index] ?? '')) code.push(lines[index] ?? '');
      blocks.push({ kind: 'code', text: code.join('\n') });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      endParagraph();
      blocks.push({ kind: 'heading', level: heading[1]!.length as 1 | 2 | 3 | 4 | 5 | 6, content: parseInline(heading[2] ?? '') });
      continue;
    }
    const item = UNORDERED_ITEM.exec(line) ?? ORDERED_ITEM.exec(line);
    if (item) {
      endParagraph();
      const ordered = !UNORDERED_ITEM.test(line);
      const last = blocks.at(-1);
      const content = parseInline(item[1] ?? '');
      if (last?.kind === 'list' && last.ordered === ordered) last.items.push(content);
      else blocks.push({ kind: 'list', ordered, items: [content] });
      continue;
    }
    if (line.trim() === '') endParagraph();
    else paragraph.push(line.trim());
  }
  endParagraph();
  return blocks;
}

const INLINE = /`([^`]+)`|\*\*(.+?)\*\*|__(.+?)__|\*(.+?)\*|_(.+?)_|\[([^\]]+)\]\(([^)\s]+)\)/;

export function parseInline(text: string): Inline[] {
  const result: Inline[] = [];
  let rest = text;
  for (let match = INLINE.exec(rest); match; match = INLINE.exec(rest)) {
    if (match.index > 0) result.push({ kind: 'text', text: rest.slice(0, match.index) });
    const [whole, code, strong, strongAlt, emphasis, emphasisAlt, label, href] = match;
    if (code !== undefined) result.push({ kind: 'code', text: code });
    else if (strong !== undefined || strongAlt !== undefined)
      result.push({ kind: 'strong', children: parseInline(strong ?? strongAlt ?? '') });
    else if (emphasis !== undefined || emphasisAlt !== undefined)
      result.push({ kind: 'emphasis', children: parseInline(emphasis ?? emphasisAlt ?? '') });
    else if (label !== undefined && href !== undefined) {
      // Only web links become links; anything else (javascript:, file:) stays text.
      result.push(/^https?:\/\//i.test(href) ? { kind: 'link', href, children: parseInline(label) } : { kind: 'text', text: label });
    }
    rest = rest.slice(match.index + whole.length);
  }
  if (rest) result.push({ kind: 'text', text: rest });
  return result;
}

/** The UTF-8 text of base64, or undefined when it is not valid base64. */
export function decodeBase64Text(base64: string): string | undefined {
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(base64), (char) => char.charCodeAt(0)));
  } catch {
    return undefined;
  }
}
