import { connection } from '../connection';
import { routeHref } from '../navigation';
import { dismissFinishedJobs, dismissJob, useJobs, type Job, type JobKind, type JobOutput } from './jobs-store';
import { useTrayCollapsed } from './use-tray-collapsed';
import './jobs.css';

const KIND_LABEL = {
  clip: 'Clip',
  highlight: 'Highlight',
  compression: 'Compression',
  upload: 'Upload',
  import: 'Import',
} as const satisfies Record<JobKind, string>;

const LIST_ID = 'jobs-tray-list';

/**
 * The jobs, docked under the page (it takes its own room, so it never covers a form or a row): a header with
 * the count that collapses and expands the cards (remembered), and a card per job.
 */
export function JobsTray() {
  const jobs = useJobs();
  const [collapsed, setCollapsed] = useTrayCollapsed();
  if (jobs.length === 0) return null;
  const running = jobs.filter((job) => job.phase === 'running').length;
  const finished = jobs.length - running;
  return (
    <section className={`jobs-tray${collapsed ? ' jobs-tray--collapsed' : ''}`} aria-label="Jobs" data-testid="jobs-tray">
      <header className="jobs-tray__header">
        <button
          type="button"
          className="jobs-tray__toggle"
          aria-expanded={!collapsed}
          aria-controls={LIST_ID}
          onClick={() => setCollapsed(!collapsed)}
        >
          <span className="jobs-tray__chevron" aria-hidden="true" />
          Jobs <span className="jobs-tray__count">{jobs.length}</span>
          <span className="jobs-tray__summary">{running > 0 ? `${running} running` : 'all finished'}</span>
        </button>
        {finished > 0 && (
          <button type="button" className="button button--small" onClick={dismissFinishedJobs}>
            Clear finished
          </button>
        )}
      </header>
      {!collapsed && (
        <div className="jobs-tray__list" id={LIST_ID}>
          {jobs.map((job) => (
            <JobCard key={job.key} job={job} />
          ))}
        </div>
      )}
    </section>
  );
}

function JobCard({ job }: { job: Job }) {
  const output = job.phase === 'done' ? job.output : undefined;
  return (
    <article className={`job job--${job.phase}`} data-testid="job-card" data-kind={job.kind} data-phase={job.phase}>
      <header className="job__header">
        <span className="job__kind">{KIND_LABEL[job.kind]}</span>
        <span className="job__percent" aria-hidden="true">
          {job.phase === 'failed' ? 'Failed' : job.phase === 'done' ? 'Done' : `${Math.round(job.progress)}%`}
        </span>
      </header>
      <p className="job__title" title={job.title}>
        {job.title}
      </p>
      <progress className="job__bar" max={100} value={job.phase === 'failed' ? 100 : job.progress} aria-label={`${job.title} progress`} />
      {job.message && (
        <p className="job__message" role={job.phase === 'failed' ? 'alert' : undefined}>
          {job.message}
        </p>
      )}
      {(job.cancel || job.phase !== 'running') && (
        <div className="job__actions">
          {job.cancel && (
            <button type="button" className="button button--small" onClick={job.cancel} aria-label={`Cancel ${job.title}`}>
              Cancel
            </button>
          )}
          {output && <OutputActions output={output} />}
          {job.phase !== 'running' && (
            <button type="button" className="button button--small" onClick={() => dismissJob(job.key)} aria-label={`Dismiss ${job.title}`}>
              Dismiss
            </button>
          )}
        </div>
      )}
    </article>
  );
}

/** Open (the video page) and Show in folder (the file manager, as the library's menu does) for what a job made. */
function OutputActions({ output }: { output: JobOutput }) {
  const name = output.title.trim() || output.fileName;
  return (
    <>
      <a
        className="button button--small"
        href={routeHref({ page: 'video', id: encodeURIComponent(output.filePath) })}
        aria-label={`Open ${name}`}
      >
        Open
      </a>
      <button
        type="button"
        className="button button--small"
        onClick={() => connection.send('OpenFileLocation', { FilePath: output.filePath })}
        aria-label={`Show ${name} in folder`}
      >
        Show in folder
      </button>
    </>
  );
}
