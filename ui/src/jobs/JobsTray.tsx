import { dismissJob, useJobs, type Job, type JobKind } from './jobs-store';
import './jobs.css';

const KIND_LABEL = {
  clip: 'Clip',
  highlight: 'Highlight',
  compression: 'Compression',
  upload: 'Upload',
  import: 'Import',
} as const satisfies Record<JobKind, string>;

/** Progress cards of the running jobs, bottom left; finished ones fade out, failed ones wait to be dismissed. */
export function JobsTray() {
  const jobs = useJobs();
  if (jobs.length === 0) return null;
  return (
    <section className="jobs-tray" aria-label="Jobs" data-testid="jobs-tray">
      {jobs.map((job) => (
        <JobCard key={job.key} job={job} />
      ))}
    </section>
  );
}

function JobCard({ job }: { job: Job }) {
  return (
    <article className={`job job--${job.phase}`} data-testid="job-card" data-kind={job.kind} data-phase={job.phase}>
      <header className="job__header">
        <span className="job__kind">{KIND_LABEL[job.kind]}</span>
        <span className="job__percent" aria-hidden="true">
          {job.phase === 'failed' ? 'Failed' : job.phase === 'done' ? 'Done' : `${Math.round(job.progress)}%`}
        </span>
      </header>
      <p className="job__title">{job.title}</p>
      <progress className="job__bar" max={100} value={job.phase === 'failed' ? 100 : job.progress} aria-label={`${job.title} progress`} />
      {job.message && (
        <p className="job__message" role={job.phase === 'failed' ? 'alert' : undefined}>
          {job.message}
        </p>
      )}
      {(job.cancel || job.phase === 'failed') && (
        <div className="job__actions">
          {job.cancel && (
            <button type="button" className="button button--small" onClick={job.cancel}>
              Cancel
            </button>
          )}
          {job.phase === 'failed' && (
            <button type="button" className="button button--small" onClick={() => dismissJob(job.key)}>
              Dismiss
            </button>
          )}
        </div>
      )}
    </article>
  );
}
