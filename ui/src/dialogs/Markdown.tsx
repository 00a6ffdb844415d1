import { connection } from '../connection';
import { parseMarkdown, type Block, type Inline } from './markdown';

function InlineContent({ content }: { content: Inline[] }) {
  return content.map((part, index) => {
    switch (part.kind) {
      case 'text':
        return part.text;
      case 'code':
        return <code key={index}>{part.text}</code>;
      case 'strong':
        return (
          <strong key={index}>
            <InlineContent content={part.children} />
          </strong>
        );
      case 'emphasis':
        return (
          <em key={index}>
            <InlineContent content={part.children} />
          </em>
        );
      case 'link':
        return (
          <a
            key={index}
            href={part.href}
            target="_blank"
            rel="noreferrer noopener"
            onClick={(event) => {
              // In the desktop host the page cannot open windows: the backend opens the default browser.
              if (connection.send('OpenInBrowser', { Url: part.href })) event.preventDefault();
            }}
          >
            <InlineContent content={part.children} />
          </a>
        );
    }
  });
}

function BlockContent({ block }: { block: Block }) {
  switch (block.kind) {
    case 'heading': {
      const Heading = `h${Math.min(6, block.level + 2)}` as 'h3' | 'h4' | 'h5' | 'h6';
      return (
        <Heading>
          <InlineContent content={block.content} />
        </Heading>
      );
    }
    case 'paragraph':
      return (
        <p>
          <InlineContent content={block.content} />
        </p>
      );
    case 'code':
      return (
        <pre>
          <code>{block.text}</code>
        </pre>
      );
    case 'list': {
      const List = block.ordered ? 'ol' : 'ul';
      return (
        <List>
          {block.items.map((item, index) => (
            <li key={index}>
              <InlineContent content={item} />
            </li>
          ))}
        </List>
      );
    }
  }
}

/** Markdown rendered as React elements (never as raw HTML). */
export function Markdown({ source }: { source: string }) {
  return (
    <div className="markdown">
      {parseMarkdown(source).map((block, index) => (
        <BlockContent key={index} block={block} />
      ))}
    </div>
  );
}
