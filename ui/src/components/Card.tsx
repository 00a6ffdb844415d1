import { useId, type ReactNode } from 'react';

interface CardProps {
  title: string;
  className?: string;
  actions?: ReactNode;
  children: ReactNode;
}

export function Card({ title, className, actions, children }: CardProps) {
  const titleId = useId();
  return (
    <section className={className ? `card ${className}` : 'card'} aria-labelledby={titleId}>
      <header className="card__header">
        <h2 className="card__title" id={titleId}>
          {title}
        </h2>
        {actions}
      </header>
      {children}
    </section>
  );
}
