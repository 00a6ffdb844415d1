// Release notes come from the network, so their Markdown is treated as hostile: markdown-it parses it with
// raw HTML off (an HTML tag stays text), and its tokens become React elements of a fixed set of tags, never an
// HTML string: no attribute of the source reaches the page except a link's address, and only http(s) ones.
import MarkdownIt, { type Token } from 'markdown-it';
import { createElement, Fragment, type ReactNode } from 'react';
import { connection } from '../connection';

const parser = new MarkdownIt({ html: false, linkify: true, typographer: false });

/** The tags a token may open; any other renders its content only. Headings start below the dialog's own. */
const TAGS: Record<string, string> = {
  p: 'p',
  h1: 'h4',
  h2: 'h4',
  h3: 'h5',
  h4: 'h6',
  h5: 'h6',
  h6: 'h6',
  ul: 'ul',
  ol: 'ol',
  li: 'li',
  blockquote: 'blockquote',
  strong: 'strong',
  em: 'em',
  s: 's',
  table: 'table',
  thead: 'thead',
  tbody: 'tbody',
  tr: 'tr',
  th: 'th',
  td: 'td',
};

/** Only web addresses become links; anything else (javascript:, file:, relative) stays text. */
const isWebLink = (href: string | number | null): href is string => typeof href === 'string' && /^https?:\/\//i.test(href);

function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noreferrer noopener"
      onClick={(event) => {
        // In the desktop host the page cannot open windows: the backend opens the default browser.
        if (connection.send('OpenInBrowser', { Url: href })) event.preventDefault();
      }}
    >
      {children}
    </a>
  );
}

/** A token that opens (`nesting` 1) with the elements rendered from its content. */
function openedElement(token: Token, children: ReactNode[], key: number): ReactNode {
  const href = token.attrGet('href');
  if (token.type === 'link_open' && isWebLink(href)) {
    return (
      <ExternalLink key={key} href={href}>
        {children}
      </ExternalLink>
    );
  }
  const tag = TAGS[token.tag];
  // A tight list's paragraphs are hidden: their text sits in the list item directly.
  if (tag === undefined || token.hidden) return <Fragment key={key}>{children}</Fragment>;
  const start = token.type === 'ordered_list_open' ? Number(token.attrGet('start') ?? 1) : undefined;
  return createElement(tag, { key, start }, ...children);
}

/** A token that neither opens nor closes. */
function leafElement(token: Token, key: number): ReactNode {
  switch (token.type) {
    case 'inline':
      return <Fragment key={key}>{elementsOf(token.children ?? [])}</Fragment>;
    case 'code_inline':
      return <code key={key}>{token.content}</code>;
    case 'fence':
    case 'code_block':
      return (
        <pre key={key}>
          <code>{token.content.replace(/\n$/, '')}</code>
        </pre>
      );
    case 'hardbreak':
      return <br key={key} />;
    case 'softbreak':
      return '\n';
    case 'hr':
      return <hr key={key} />;
    case 'image':
      // Its alt text: the notes load nothing from the network.
      return <Fragment key={key}>{elementsOf(token.children ?? [])}</Fragment>;
    default:
      // Text, and with raw HTML off markdown-it makes no html token; its content is rendered as text anyway.
      return token.content;
  }
}

/** markdown-it's flat token stream (opening and closing tokens around their content) as a tree of elements. */
function elementsOf(tokens: Token[]): ReactNode[] {
  const open: { token: Token | undefined; children: ReactNode[] }[] = [{ token: undefined, children: [] }];
  for (const token of tokens) {
    const parent = open.at(-1)!;
    if (token.nesting === 1) open.push({ token, children: [] });
    else if (token.nesting === -1 && open.length > 1) {
      const closed = open.pop()!;
      open.at(-1)!.children.push(openedElement(closed.token!, closed.children, open.at(-1)!.children.length));
    } else parent.children.push(leafElement(token, parent.children.length));
  }
  return open[0]!.children;
}

/** Markdown rendered as React elements (never as raw HTML). */
export function Markdown({ source }: { source: string }) {
  return <div className="markdown">{elementsOf(parser.parse(source, {}))}</div>;
}
