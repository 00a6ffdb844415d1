import type { ContentType, State } from '@keyframe/core/protocol';
import { Card } from './Card';

/** In display order. `satisfies` makes the list exhaustive once `ContentType` is a union of literals. */
const CONTENT_TYPE_LABELS = {
  Session: 'Sessions',
  Buffer: 'Replay buffers',
  Clip: 'Clips',
  Highlight: 'Highlights',
} as const satisfies Record<ContentType, string>;

function countByType(content: State['content']): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of content) counts.set(item.type, (counts.get(item.type) ?? 0) + 1);
  return counts;
}

interface LibrarySummaryProps {
  content: State['content'];
  folderSizeGb: number;
}

export function LibrarySummary({ content, folderSizeGb }: LibrarySummaryProps) {
  const counts = countByType(content);
  return (
    <Card title="Library" actions={<span className="card__meta">{folderSizeGb.toFixed(1)} GB</span>}>
      <dl className="library-summary">
        {Object.entries(CONTENT_TYPE_LABELS).map(([type, label]) => (
          <div className="library-summary__item" key={type}>
            <dt className="library-summary__label">{label}</dt>
            <dd className="library-summary__count">{counts.get(type) ?? 0}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
