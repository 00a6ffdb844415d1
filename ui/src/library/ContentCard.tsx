import type { ContentItem } from '@keyframe/core/protocol';
import { useState } from 'react';
import { ActionsMenu, type MenuAction } from './ActionsMenu';
import { BookmarkBadges } from './BookmarkBadges';
import { setFavorite } from './content-commands';
import { displayTitle, durationSeconds, formatCreatedAt, formatSeconds } from './content-format';
import { thumbnailUrl } from './media-urls';
import { videoHref } from './routes';

interface ContentCardProps {
  item: ContentItem;
  cacheFolder: string;
  selected: boolean;
  onSelectedChange: (selected: boolean) => void;
  actions: readonly MenuAction[];
  connected: boolean;
}

export function ContentCard({ item, cacheFolder, selected, onSelectedChange, actions, connected }: ContentCardProps) {
  const [thumbnailFailed, setThumbnailFailed] = useState(false);
  const title = displayTitle(item);
  const href = videoHref(item);
  return (
    <article
      className={selected ? 'content-card content-card--selected' : 'content-card'}
      data-testid="content-card"
      data-file-path={item.filePath}
      data-title={title}
      data-favorite={item.favorite === true}
    >
      <a className="content-card__thumbnail" href={href} tabIndex={-1} aria-hidden="true">
        {thumbnailFailed ? (
          <span className="content-card__placeholder">No preview</span>
        ) : (
          <img
            src={thumbnailUrl(item, cacheFolder)}
            alt=""
            loading="lazy"
            onError={() => setThumbnailFailed(true)}
            data-testid="content-thumbnail"
          />
        )}
        <span className="content-card__duration">{formatSeconds(durationSeconds(item.duration))}</span>
      </a>
      <input
        type="checkbox"
        className="content-card__select"
        checked={selected}
        aria-label={`Select ${title}`}
        onChange={(event) => onSelectedChange(event.target.checked)}
        data-testid="content-select"
      />
      <div className="content-card__body">
        <div className="content-card__heading">
          <a className="content-card__title" href={href} title={title} data-testid="content-title">
            {title}
          </a>
          <button
            type="button"
            className={
              item.favorite ? 'icon-button content-card__favorite content-card__favorite--on' : 'icon-button content-card__favorite'
            }
            aria-label={`Favourite: ${title}`}
            aria-pressed={item.favorite === true}
            title={item.favorite ? 'Remove from favourites' : 'Add to favourites'}
            disabled={!connected}
            onClick={() => setFavorite(item, !item.favorite)}
            data-testid="content-favorite"
          >
            <span aria-hidden="true">{item.favorite ? '★' : '☆'}</span>
          </button>
          <ActionsMenu label={`Actions for ${title}`} actions={actions} />
        </div>
        <p className="content-card__game">{item.game}</p>
        <p className="content-card__meta">
          <span>{item.fileSize}</span>
          <span aria-hidden="true">·</span>
          <time dateTime={item.createdAt}>{formatCreatedAt(item.createdAt)}</time>
        </p>
        <BookmarkBadges bookmarks={item.bookmarks} />
      </div>
    </article>
  );
}
